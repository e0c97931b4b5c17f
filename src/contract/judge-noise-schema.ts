import { z } from 'zod'
import { METRICS } from './metrics/metric-table.ts'
import { metricFields } from './metrics/metric.ts'

/** One question's judge-derived scores in every repeat (EVAL_REPEATS > 1); index 0 is the score the report uses. */
export const JudgeRepeatsSchema = z.object({
  refused: z.array(z.boolean().nullable()),
  faithfulness: z.array(z.number().nullable()),
  answerRelevancy: z.array(z.number().nullable()),
  coverage: z.array(z.number().nullable()),
})
export type JudgeRepeats = z.infer<typeof JudgeRepeatsSchema>

/** The fields the judge decides (the table's judge-sourced metrics read them): what each repeat keeps. */
export const JUDGE_REPEAT_FIELDS = metricFields(METRICS, (metric) => metric.source === 'judge') as (keyof JudgeRepeats)[]

/**
 * The judge's noise floor (EVAL_REPEATS = n > 1): every answer judged n times, the first scoring the
 * report. Per judge-derived gated metric: its summary value in each repeat, their sample standard
 * deviation (the run-to-run noise of the metric when nothing but the judge changes), and the questions
 * whose verdict is not the same in every repeat, with their values.
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
      flipped: z.array(z.object({ id: z.string(), values: z.array(z.union([z.number(), z.boolean()]).nullable()) })),
    }),
  ),
})
export type JudgeNoise = z.infer<typeof JudgeNoiseSchema>
