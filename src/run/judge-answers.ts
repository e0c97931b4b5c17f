import pLimit from 'p-limit'
import type { Judge } from '../judge/judge.ts'
import type { QuestionOutcome } from '../report/report-schema.ts'
import { scoreGeneration } from '../scoring/score-generation.ts'
import type { QuestionRun } from './run-system.ts'

export interface JudgedAnswers {
  outcomes: QuestionOutcome[]
  /** Wall time of each judgement. */
  judgeMs: number[]
}

/**
 * Has the judge score every answered question (at most `concurrency` at a time) and adds the
 * judgements to the outcomes, in golden-set order. Questions without an answer keep null scores.
 */
export async function judgeAnswers(
  outcomes: readonly QuestionOutcome[],
  runs: readonly QuestionRun[],
  judge: Judge,
  docText: (docId: string) => string,
  concurrency: number,
  /** Aborted: no judgement starts any more, and the run rejects with the reason. */
  signal?: AbortSignal,
): Promise<JudgedAnswers> {
  const limit = pLimit(concurrency)
  const judgeMs: number[] = []
  const judged = await Promise.all(
    outcomes.map((outcome, index) =>
      limit(async () => {
        signal?.throwIfAborted()
        const run = runs[index]!
        if (outcome.answer === null) return outcome
        const started = performance.now()
        const judgement = await judge.judge({
          questionId: outcome.id,
          question: outcome.question,
          answer: outcome.answer,
          goldAnswer: outcome.goldAnswer,
          context: run.output.context.map(({ chunkId, text }) => ({ chunkId, text })),
        })
        judgeMs.push(performance.now() - started)
        return scoreGeneration(outcome, judgement, docText)
      }),
    ),
  )
  return { outcomes: judged, judgeMs }
}
