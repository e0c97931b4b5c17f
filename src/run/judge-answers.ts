import pLimit from 'p-limit'
import type { Judge, JudgeInput } from '../judge/judge.ts'
import type { QuestionOutcome } from '../contract/report-schema.ts'
import { scoreGeneration } from '../judge/score-generation.ts'
import { citedSentences } from '../scoring/generation/citations.ts'
import { stripCitationMarkers } from '../contract/citation-markers.ts'
import type { QuestionRun } from './run-system.ts'
import { lossFunnel } from '../scoring/loss-funnel.ts'
import { FAITHFULNESS } from '../contract/metrics/metric-table.ts'
import { JUDGE_REPEAT_FIELDS, type JudgeRepeats } from '../contract/judge-noise-schema.ts'

/**
 * What the judge is shown of a question's run: its answer (null when there is none to judge) without its citation
 * markers, the sentences' citations, and the context it was given.
 */
export function judgeInputOf(run: QuestionRun, repeat: number): JudgeInput | null {
  const { answer, context, citations } = run.output
  if (answer == null) return null
  const { question } = run
  return {
    questionId: question.id,
    question: question.question,
    ...(question.history === undefined ? {} : { history: question.history }),
    answer: stripCitationMarkers(answer),
    cited: citedSentences(
      answer,
      context.map(({ chunkId }) => chunkId),
      citations,
    ),
    goldAnswer: question.goldAnswer ?? null,
    context: context.map(({ chunkId, text }) => ({ chunkId, text })),
    answerChunkIds: context.filter((c) => question.answerDocIds.includes(c.docId)).map((c) => c.chunkId),
    repeat,
  }
}

/** The funnel once the answer is judged: its claims' chunks tell a context document used from one ignored. */
function withClaims(outcome: QuestionOutcome, run: QuestionRun): QuestionOutcome {
  const judged = outcome.generation?.[FAITHFULNESS.field]
  if (outcome.funnel === null || judged === undefined || judged.status === 'judge-error') return outcome
  const docIds = outcome.funnel.map((entry) => entry.docId)
  return { ...outcome, funnel: lossFunnel(docIds, { ...run.output, stages: run.output.stages ?? [] }, judged.claims) }
}

/**
 * Judges every answered question in golden-set order; unanswered ones keep null scores. With `repeats` n > 1 the first
 * judgement scores, and all n are kept in judgeRepeats for the judge's noise (src/judge/judge-noise.ts).
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
): Promise<{ outcomes: QuestionOutcome[]; judgeMs: number[] }> {
  const limit = pLimit(concurrency)
  const judgeMs: number[] = []
  const judgeOnce = (outcome: QuestionOutcome, index: number, repeat: number) =>
    limit(async () => {
      signal?.throwIfAborted()
      const started = performance.now()
      const { judgeMs: own, ...judgement } = await judge.judge(judgeInputOf(runs[index]!, repeat)!)
      judgeMs.push(own ?? performance.now() - started)
      return withClaims(scoreGeneration(outcome, judgement, docText), runs[index]!)
    })
  const judged = await Promise.all(
    outcomes.map(async (outcome, index) => {
      if (outcome.answer === null) return outcome
      const scored = await Promise.all(Array.from({ length: repeats }, (_, repeat) => judgeOnce(outcome, index, repeat)))
      const first = scored[0]!
      if (repeats === 1) return first
      const judgeRepeats = Object.fromEntries(
        JUDGE_REPEAT_FIELDS.map((field) => [field, scored.map((s) => s[field as keyof QuestionOutcome])]),
      ) as JudgeRepeats
      return { ...first, judgeRepeats }
    }),
  )
  return { outcomes: judged, judgeMs }
}
