import { z } from 'zod'

/** One trial of a question: what its verdict reads (hit, refused) and each table metric's value, by name. */
export const TrialRunSchema = z.object({
  /** The ranking's documents, best first (`rankedDocIds`): a trial that ranked differently is told apart by them. */
  rankedDocIds: z.array(z.string()),
  hit: z.boolean(),
  refused: z.boolean().nullable(),
  systemError: z.string().nullable(),
  values: z.record(z.string(), z.number().nullable()),
})
export type TrialRun = z.infer<typeof TrialRunSchema>

/** A metric's mean over a question's trials with the interval across them (Wilson for 0/1 values, else Student's t). */
const TrialMeanSchema = z.object({ mean: z.number(), low: z.number(), high: z.number() })

/**
 * A question asked `trials: n > 1` times (docs/statistics.md, "Trials"): each trial's record and, once the report is
 * assembled, its verdict per trial, the pass rate, pass@k (any of the k = n trials passed) and pass^k (all did).
 */
export const QuestionTrialsSchema = z.object({
  runs: z.array(TrialRunSchema),
  /** Each trial's verdict (null: undecidable); empty until the report is assembled. */
  passed: z.array(z.boolean().nullable()),
  passRate: z.number().nullable(),
  passAtK: z.boolean().nullable(),
  passHatK: z.boolean().nullable(),
  /** Its outcome differs across trials: its verdict, its ranking or any metric's value. */
  flaky: z.boolean(),
  /** What differs across trials: `verdict`, `systemError`, `ranking`, then the metrics, by name. */
  varied: z.array(z.string()),
  /** Each metric with a value in some trial. */
  metrics: z.record(z.string(), TrialMeanSchema),
})
export type QuestionTrials = z.infer<typeof QuestionTrialsSchema>

/** The run's trials (absent with one trial): the flaky questions, and whether the set can see a drop of the tolerance. */
export const ReportTrialsSchema = z.object({
  trials: z.number().int(),
  flaky: z.array(z.object({ id: z.string(), passed: z.number().int(), of: z.number().int(), varied: z.array(z.string()) })),
  flakyRate: z.number(),
  /** The smallest drop of the pass rate the golden set and its trials detect at 80% power; null when none is. */
  minimumDetectableDrop: z.number().nullable(),
  /** Why a drop as small as the tolerance may go unseen; null when it would not. */
  underpowered: z.string().nullable(),
})
export type ReportTrials = z.infer<typeof ReportTrialsSchema>
