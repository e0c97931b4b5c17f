import { z } from 'zod'
import { RecordedEvalConfigSchema } from '../contract/eval-config-schema.ts'
import { QUESTION_TYPES } from '../contract/question-types.ts'
import { QuestionOutcomeSchema, type QuestionOutcome } from '../contract/question-outcome-schema.ts'
import { METRICS, type MetricTable } from '../contract/metrics/metric-table.ts'
import { gatedEntries, metricFields } from '../contract/metrics/metric.ts'
import { ACCEPT_BASELINE } from './baseline-location.ts'

/** What to do about a damaged baseline: accept this run's numbers again (after checking them). */
export const REACCEPT_BASELINE = `re-accept the baseline with \`${ACCEPT_BASELINE}\``

/** The schema's message for a gated metric the baseline lacks (folded into one line by describeBaselineIssues). */
const MISSING_METRIC = 'missing'

/**
 * Every gated metric's accepted value by name (null: not computed), no other key: a baseline missing or
 * misspelling one would let that metric through unwatched.
 */
export function baselineMetricsSchema(table: MetricTable = METRICS) {
  const names = gatedEntries(table).map((metric) => metric.name)
  return z.strictObject(
    Object.fromEntries(
      names.map((name) => [
        name,
        z.number({ error: (issue) => (issue.input === undefined ? MISSING_METRIC : undefined) }).nullable(),
      ]),
    ),
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `unknown gated metric ${issue.keys.map((k) => `"${k}"`).join(', ')} (misspelled?); ` +
            `the gated metrics are ${names.join(', ')}`
          : undefined,
    },
  )
}

/** baseline/summary.json: the gated metrics and what they were measured with, so other inputs are detected. */
export const BaselineSummarySchema = z
  .object({
    schemaVersion: z.literal(1),
    system: z.string(),
    config: RecordedEvalConfigSchema,
    models: z.object({ generator: z.string(), judge: z.string() }).strict(),
    judgePromptsHash: z.string().nullable(),
    goldenSetHash: z.string(),
    corpusHash: z.string(),
    metrics: baselineMetricsSchema(),
    /** The gated metrics measured per stage, at each stage (`recall@rerank`): where a drop first appears; absent without stages. */
    stages: z.record(z.string(), z.number().nullable()).optional(),
  })
  .strict()
export type BaselineSummary = z.infer<typeof BaselineSummarySchema>

/** The outcome fields of the gated metrics (hit, reciprocalRank, ..., coverage): what the gate's paired tests read. */
type GatedField = Extract<(typeof METRICS)[number], { gated: 'overall' | 'overall-and-types' }>['field']
const GATED_FIELDS = metricFields(METRICS, (metric) => metric.gated !== false)

/** A question's accepted outcome: its id, type and the gated metrics' fields. */
export type BaselineQuestion = Pick<QuestionOutcome, 'id' | 'type' | GatedField> & {
  /** With trials > 1: the trials it passed of those decided (the fields above are its first trial's). */
  passedTrials?: { passed: number; of: number }
}

/** baseline/questions.json: each question's accepted outcome, sorted by id. */
export const BaselineQuestionSchema = z
  .object({
    id: z.string(),
    type: z.enum(QUESTION_TYPES),
    ...Object.fromEntries(GATED_FIELDS.map((field) => [field, QuestionOutcomeSchema.shape[field]])),
    passedTrials: z
      .object({ passed: z.number().int().min(0), of: z.number().int().min(1) })
      .strict()
      .optional(),
  })
  .strict() as unknown as z.ZodType<BaselineQuestion>

/** A question's accepted outcome, as baseline/questions.json keeps it. */
export function baselineQuestion(outcome: QuestionOutcome): BaselineQuestion {
  const record = Object.fromEntries(
    (['id', 'type', ...GATED_FIELDS] as const).map((field) => [field, outcome[field]]),
  ) as BaselineQuestion
  const decided = outcome.trials?.passed.filter((p) => p !== null) ?? []
  return decided.length === 0
    ? record
    : { ...record, passedTrials: { passed: decided.filter(Boolean).length, of: decided.length } }
}

/** At least one question: the gate checks every question the baseline passed, so an empty list would check none. */
export const BaselineQuestionsSchema = z
  .object({
    schemaVersion: z.literal(1),
    questions: z
      .array(BaselineQuestionSchema)
      .min(1, { error: 'no per-question outcomes (an accepted baseline holds one for every question of the golden set)' }),
    /** Questions the system failed on (within maxSystemErrorRate), kept out of `questions`; absent when none. */
    systemErrors: z.array(z.string()).optional(),
  })
  .strict()

export interface Baseline {
  summary: BaselineSummary
  questions: BaselineQuestion[]
  /** Questions the accepted run could not measure (system errors): no verdict on them. */
  systemErrors?: string[]
}

/** Issues as `<file>: <problem>; <what to do>` lines, missing gated metrics one line each. */
export function describeBaselineIssues(file: string, issues: readonly z.core.$ZodIssue[]): string[] {
  const missing = issues
    .filter((issue) => issue.path[0] === 'metrics' && issue.path.length === 2 && issue.message === MISSING_METRIC)
    .map((issue) => String(issue.path[1]))
  const lines: string[] = []
  if (missing.length === 1) lines.push(`gated metric "${missing[0]}" missing`)
  if (missing.length > 1) lines.push(`gated metrics ${missing.map((name) => `"${name}"`).join(', ')} missing`)
  for (const issue of issues) {
    const [top, metric] = issue.path
    if (top === 'metrics' && issue.path.length === 2) {
      if (issue.message !== MISSING_METRIC) lines.push(`gated metric "${String(metric)}": ${issue.message}`)
    } else if (top === 'metrics' || issue.path.length === 0) lines.push(issue.message)
    else lines.push(`field "${issue.path.join('.')}": ${issue.message}`)
  }
  return lines.map((line) => `${file}: ${line}; ${REACCEPT_BASELINE}`)
}

/** A baseline that cannot be trusted (readBaseline): each problem names its file, what is wrong and what to do. The gate fails on it. */
export interface DamagedBaseline {
  damaged: string[]
}
