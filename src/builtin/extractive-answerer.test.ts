import { describe, expect, it } from 'vitest'
import { extractiveAnswer, REFUSAL_SENTENCE } from './extractive-answerer.ts'

const context = [
  { text: 'Logging > Retention\nLogs are retained for 30 days. Metrics are kept longer.' },
  { text: 'Billing\n- Invoices are sent monthly.\n- Refunds take 5 days.' },
]

describe('extractiveAnswer', () => {
  it('picks the sentences covering most of the question, its heading counting for each sentence', () => {
    // Question terms: long, log, retain (IDF 1 each). "Logs are retained..." has log and retain: 2/3;
    // "Metrics are kept longer." has log from its heading ("longer" stems to itself): 1/3, half the best.
    const one = extractiveAnswer('How long are logs retained?', context, () => 1, { refusalThreshold: 0.5, maxSentences: 1 })
    expect(one).toEqual({ answer: 'Logs are retained for 30 days [1].', refused: false, support: 2 / 3 })
    const two = extractiveAnswer('How long are logs retained?', context, () => 1, { refusalThreshold: 0.5, maxSentences: 2 })
    // Each sentence cites the chunk it was lifted from, before its full stop.
    expect(two.answer).toBe('Logs are retained for 30 days [1]. Metrics are kept longer [1].')
  })

  it('weighs the terms by IDF and refuses below the threshold', () => {
    // Weights long 1, log 1, retain 8: "Logs are retained..." covers 9/10, the other sentence 1/10 (under half).
    const idf = (term: string) => (term === 'retain' ? 8 : 1)
    expect(extractiveAnswer('How long are logs retained?', context, idf, { refusalThreshold: 0.5, maxSentences: 3 })).toEqual({
      answer: 'Logs are retained for 30 days [1].',
      refused: false,
      support: 9 / 10,
    })
    // Refunds: the list item "Refunds take 5 days." covers refund and dai of refund, dai, card: 2/3 < 0.7.
    expect(extractiveAnswer('Refund days by card?', context, () => 1, { refusalThreshold: 0.7, maxSentences: 3 })).toEqual({
      answer: REFUSAL_SENTENCE,
      refused: true,
      support: 2 / 3,
    })
  })
  it("cites each sentence with its chunk's place in the context", () => {
    // Terms invoice, sent, log, retain: "Logs are retained..." (chunk 1) and "Invoices are sent monthly." (chunk 2) cover 2/4 each.
    expect(
      extractiveAnswer('When are invoices sent and logs retained?', context, () => 1, { refusalThreshold: 0.3, maxSentences: 2 })
        .answer,
    ).toBe('Logs are retained for 30 days [1]. Invoices are sent monthly [2].')
  })
})
