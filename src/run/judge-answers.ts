import pLimit from 'p-limit'
import type { Judge } from '../judge/judge.ts'
import type { QuestionOutcome } from '../contract/report-schema.ts'
import { scoreGeneration } from '../judge/score-generation.ts'
import type { QuestionRun } from './run-system.ts'

export interface JudgedAnswers {
  outcomes: QuestionOutcome[]
  /** Wall time of each judgement. */
  judgeMs: number[]
}

/**
 * Has the judge score every answered question (at most `concurrency` judgements at a time) and adds the
 * judgements to the outcomes, in golden-set order. Questions without an answer keep null scores. With
 * `repeats` n > 1 every answer is judged n times (repeat r is JudgeInput.repeat r): the first scores the
 * outcome, and all n are kept in its judgeRepeats for the judge's noise (src/judge/judge-noise.ts).
 */
export async function judgeAnswers(
  outcomes: readonly QuestionOutcome[],
  runs: readonly QuestionRun[],
  judge: Judge,
  docText: (docId: string) => string,
  concurrency: number,
  /** Aborted: no judgement starts any more, and the run rejects with the reason. */
  signal?: AbortSignal,
  repeats = 1,
): Promise<JudgedAnswers> {
  const limit = pLimit(concurrency)
  const judgeMs: number[] = []
  const judgeOnce = (outcome: QuestionOutcome, index: number, repeat: number) =>
    limit(async () => {
      signal?.throwIfAborted()
      const run = runs[index]!
      const started = performance.now()
      const judgement = await judge.judge({
        questionId: outcome.id,
        question: outcome.question,
        answer: outcome.answer!,
        goldAnswer: outcome.goldAnswer,
        context: run.output.context.map(({ chunkId, text }) => ({ chunkId, text })),
        repeat,
      })
      judgeMs.push(performance.now() - started)
      return scoreGeneration(outcome, judgement, docText)
    })
  const judged = await Promise.all(
    outcomes.map(async (outcome, index) => {
      if (outcome.answer === null) return outcome
      const scored = await Promise.all(Array.from({ length: repeats }, (_, repeat) => judgeOnce(outcome, index, repeat)))
      const first = scored[0]!
      if (repeats === 1) return first
      const judgeRepeats = {
        refused: scored.map((s) => s.refused),
        faithfulness: scored.map((s) => s.faithfulness),
        answerRelevancy: scored.map((s) => s.answerRelevancy),
        coverage: scored.map((s) => s.coverage),
      }
      return { ...first, judgeRepeats }
    }),
  )
  return { outcomes: judged, judgeMs }
}
