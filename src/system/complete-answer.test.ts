import { describe, expect, it } from 'vitest'
import { completeAnswer } from './complete-answer.ts'
import { checkHttpResponse } from './http-contract.ts'

const defaults = { budgetTokens: 100, countTokens: (text: string) => text.split(' ').length }

function complete(body: unknown) {
  const checked = checkHttpResponse(body)
  if (!checked.ok) throw new Error(checked.problems)
  return completeAnswer(checked.response, defaults)
}

describe('completeAnswer: stages, citations and the prompt', () => {
  it("gives a stage's chunk without an id the final ranking's id for the same text, else one naming the stage", () => {
    const kept = { docId: 'doc-1', text: 'Refunds take 14 days.' }
    const dropped = { docId: 'doc-2', text: 'Shipping is free.' }
    const answer = complete({
      ranked: [kept],
      stages: [
        { name: 'retrieve', ranked: [dropped, kept], query: 'refund days', latencyMs: 4 },
        { name: 'rerank', ranked: [kept] },
      ],
      answer: 'Refunds take 14 days [1].',
      citations: [{ start: 0, end: 20, chunkIds: ['doc-1#0'] }],
      prompt: 'Answer from the context.',
    })
    expect(answer.stages).toEqual([
      {
        name: 'retrieve',
        query: 'refund days',
        latencyMs: 4,
        ranked: [
          { chunkId: 'doc-2#stage1-0', docId: 'doc-2', score: 2, tokens: 3, text: 'Shipping is free.' },
          { chunkId: 'doc-1#0', docId: 'doc-1', score: 1, tokens: 4, text: 'Refunds take 14 days.' },
        ],
      },
      { name: 'rerank', ranked: [{ chunkId: 'doc-1#0', docId: 'doc-1', score: 1, tokens: 4, text: 'Refunds take 14 days.' }] },
    ])
    expect(answer.citations).toEqual([{ start: 0, end: 20, chunkIds: ['doc-1#0'] }])
    expect(answer.prompt).toBe('Answer from the context.')
  })

  it('leaves out what the system did not send', () => {
    const answer = complete({ ranked: [{ docId: 'doc-1', text: 'a b' }], answer: 'b' })
    expect(Object.keys(answer).sort()).toEqual(['answer', 'context', 'ranked'])
  })
})
