import { z } from 'zod'
import { METRICS } from './metrics/metric-table.ts'
import { metricFields } from './metrics/metric.ts'

/** The fields the judge decides, those the table's judge-sourced metrics read: what each repeat keeps. */
export const JUDGE_REPEAT_FIELDS: readonly string[] = metricFields(METRICS, (metric) => metric.source === 'judge')

/** A judged field's value: a score, or a verdict (refused). */
const judgedValue = z.union([z.number(), z.boolean()]).nullable()

/** Fields of metrics added after reports with repeats were written: optional, so those reports still read. */
const ADDED_LATER: ReadonlySet<string> = new Set(metricFields(METRICS, (metric) => metric.addedLater))

/** One question's judge-decided fields in every repeat (EVAL_REPEATS > 1); index 0 is the value the report uses. */
export const JudgeRepeatsSchema = z.object(
  Object.fromEntries(
    JUDGE_REPEAT_FIELDS.map((field) => [field, ADDED_LATER.has(field) ? z.array(judgedValue).optional() : z.array(judgedValue)]),
  ),
)
export type JudgeRepeats = z.infer<typeof JudgeRepeatsSchema>

/**
 * The judge's noise floor (EVAL_REPEATS = n > 1, the first repeat scoring the report): per judge-derived gated
 * metric, its value in each repeat, their sample standard deviation, and the questions whose verdict varied.
 */
export const JudgeNoiseSchema = z.object({
  repeats: z.number().int(),
  metrics: z.array(
    z.object({
      name: z.string(),
      label: z.string(),
      perRepeat: z.array(z.number().nullable()),
      /** Sample standard deviation of perRepeat (its computed values); null when fewer than two are computed. */
      stdDev: z.number().nullable(),
      flipped: z.array(z.object({ id: z.string(), values: z.array(judgedValue) })),
    }),
  ),
})
export type JudgeNoise = z.infer<typeof JudgeNoiseSchema>
