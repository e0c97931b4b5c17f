import { z } from 'zod'

/** A confidence interval for a summary metric or a difference, with the method that produced it. */
export const IntervalSchema = z
  .object({
    low: z.number(),
    high: z.number(),
    method: z.enum(['bootstrap-percentile', 'wilson', 'prediction-powered']),
  })
  .strict()

export type Interval = z.infer<typeof IntervalSchema>
