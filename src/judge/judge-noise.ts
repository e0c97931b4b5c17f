import type { QuestionOutcome } from '../contract/report-schema.ts'
import { METRICS } from '../contract/metrics/metric-table.ts'
import { gatedEntries, summaryValue } from '../contract/metrics/metric.ts'
import { round4, sampleStandardDeviation } from '../statistics/descriptive.ts'
import { summarise } from '../summary/summarise.ts'
import { JUDGE_REPEAT_FIELDS, type JudgeNoise, type JudgeRepeats } from '../contract/judge-noise-schema.ts'

/** The gated metrics the judge decides, each reading its field of judgeRepeats per question. */
const JUDGED_METRICS = gatedEntries(METRICS).filter((metric) => metric.metric.source === 'judge')

/** The outcome as repeat r scored it: its judge-derived fields from that repeat (null for a field added since). */
function asRepeat(outcome: QuestionOutcome, repeats: JudgeRepeats, r: number): QuestionOutcome {
  return { ...outcome, ...Object.fromEntries(JUDGE_REPEAT_FIELDS.map((field) => [field, repeats[field]?.[r] ?? null])) }
}

/**
 * The judge's noise over `repeats` judgings (pure): per judge-derived metric, its summary value per repeat, their
 * sample standard deviation, and the questions whose value varies. null with fewer than two repeats or nothing
 * judged. The offline judge is deterministic, so its deviations are 0.
 */
export function measureJudgeNoise(questions: readonly QuestionOutcome[], repeats: number): JudgeNoise | null {
  if (repeats < 2 || !questions.some((q) => q.judgeRepeats !== null)) return null
  const summaries = Array.from({ length: repeats }, (_, r) =>
    summarise(questions.map((q) => (q.judgeRepeats === null ? q : asRepeat(q, q.judgeRepeats, r)))),
  )
  return {
    repeats,
    metrics: JUDGED_METRICS.map(({ name, label, path, metric }) => {
      const perRepeat = summaries.map((summary) => summaryValue(summary, path))
      const field = metric.field!
      const stdDev = sampleStandardDeviation(perRepeat.filter((v): v is number => v !== null))
      const flipped = questions.flatMap((q) => {
        const values = q.judgeRepeats?.[field] ?? []
        return values.some((v) => v !== values[0]) ? [{ id: q.id, values }] : []
      })
      return { name, label, perRepeat, stdDev: stdDev === null ? null : round4(stdDev), flipped }
    }),
  }
}

/** A warning per judge-derived metric noisier than the tolerance: such a drop can be the judge, not the system. */
export function judgeNoiseWarnings(noise: JudgeNoise | null, tolerance: number): string[] {
  if (noise === null) return []
  return noise.metrics
    .filter((metric) => metric.stdDev !== null && metric.stdDev > tolerance)
    .map(
      (metric) =>
        `judge noise: ${metric.label} varies by ${metric.stdDev} (standard deviation over ${noise.repeats} ` +
        `judgements of the same answers), more than the gate's tolerance ${tolerance}: ` +
        `a drop that small can be the judge, not the system (raise EVAL_TOLERANCE, or use EVAL_GATE_POLICY=both)`,
    )
}
