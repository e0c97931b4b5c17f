import { describe, expect, it } from 'vitest'
import type { JudgeInput } from '../judge/judge.ts'
import { offlineJudge } from '../judge/offline-judge.ts'
import { offlineJudgeOnThread } from './offline-judge-thread.ts'

// A worker thread's start and its modules' loading take seconds on a busy machine: the verdict waits for it.

const context = [
  { chunkId: 'doc-1#0', text: 'Refunds\nRefunds are issued within 5 business days. The billing team approves each refund.' },
  { chunkId: 'doc-2#1', text: 'Escalation\nA sev-1 incident pages the on-call engineer within 15 minutes.' },
]
const answers = [
  'Refunds are issued within 5 business days.',
  'Refunds are issued within 9 business days by the legal team.',
  'I could not find the answer to this question in the provided material.',
  'A sev-1 incident pages the on-call engineer within 15 minutes. The billing team approves each refund.',
]
const inputs: JudgeInput[] = Array.from({ length: 150 }, (_, i) => ({
  questionId: `q-${i}`,
  question: i % 2 === 0 ? 'How fast are refunds issued?' : 'Who is paged for a sev-1 incident?',
  answer: answers[i % answers.length]!,
  goldAnswer: i % 3 === 0 ? null : 'Within 5 business days.',
  context,
  repeat: 0,
}))

describe('offlineJudgeOnThread', () => {
  it('is only for large runs: below 2,000 questions the offline judge judges on this thread', () => {
    expect(offlineJudgeOnThread(1999)).toBeNull()
  })

  it('gives the offline judge’s verdicts for answers prefetched on its thread, and judges a changed answer here', async () => {
    const judge = offlineJudgeOnThread(10_000)!
    try {
      expect(judge.name).toBe(offlineJudge.name)
      for (const input of inputs) judge.prefetch(input)
      for (const input of inputs) {
        const { judgeMs, ...verdict } = await judge.judge(input)
        expect(verdict).toEqual(await offlineJudge.judge(input))
        // The thread's own time for it (the wall time of this call would be the wait for the thread).
        expect(judgeMs).toBeGreaterThanOrEqual(0)
      }
      // Asked about another answer than the one prefetched under the same question: judged here, no thread time.
      const changed = { ...inputs[0]!, answer: 'The legal team issues refunds within 9 days.' }
      expect(await judge.judge(changed)).toEqual(await offlineJudge.judge(changed))
    } finally {
      await judge.close()
    }
  })
})
