import { describe, expect, it } from 'vitest'
import type { RetrievedChunk } from '../system/rag-system.ts'
import { judgeInputOf } from './judge-answers.ts'
import type { QuestionRun } from './run-system.ts'

const chunk = (chunkId: string, text: string): RetrievedChunk => ({ chunkId, docId: chunkId, score: 1, tokens: 5, text })
const context = [chunk('d1#0', 'Traces are kept for 30 days.'), chunk('d2#0', 'Snapshots are taken every 6 hours.')]
const run = (output: Partial<QuestionRun['output']>): QuestionRun => ({
  question: { id: 'q-1', type: 'single', question: 'How long are traces kept?', answerDocIds: ['d1'] },
  output: { ranked: context, context, ...output },
  systemError: null,
  retrieveMs: 1,
  generateMs: null,
  callMs: 0,
})

describe('judgeInputOf', () => {
  it('shows the judges the answer without its markers, and each sentence with what it cites', () => {
    const input = judgeInputOf(run({ answer: 'Traces are kept for 30 days [1]. Snapshots run hourly [5].' }), 0)!
    expect(input.answer).toBe('Traces are kept for 30 days. Snapshots run hourly.')
    expect(input.cited).toEqual([
      { sentence: 'Traces are kept for 30 days.', cited: ['d1#0'], fabricated: [] },
      { sentence: 'Snapshots run hourly.', cited: [], fabricated: ['[5]'] },
    ])
  })

  it("reads the system's citation spans when it returns them", () => {
    const answer = 'Traces are kept for 30 days. Snapshots run every 6 hours.'
    const input = judgeInputOf(run({ answer, citations: [{ start: 29, end: 57, chunkIds: ['d2#0', 'd7#3'] }] }), 0)!
    expect(input.cited).toEqual([
      { sentence: 'Traces are kept for 30 days.', cited: [], fabricated: [] },
      { sentence: 'Snapshots run every 6 hours.', cited: ['d2#0'], fabricated: ['d7#3'] },
    ])
  })
})
