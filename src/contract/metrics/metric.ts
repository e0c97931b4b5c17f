import type { QuestionOutcome, StageOutcome } from '../question-outcome-schema.ts'
import { ANSWERABLE_TYPES, type QuestionType } from '../question-types.ts'

/** Which questions a metric is measured over: every one, the answerable ones, or one type. */
export type MetricScope = 'all' | 'answerable' | QuestionType

/** The paired test that fits a metric's per-question values (docs/statistics.md): exact McNemar for 0/1 values. */
export type PairedTest = 'mcnemar-exact' | 'paired-permutation'

/** What a metric reads: a report's outcome, or a baseline record (only the gated metrics' fields; others null). */
export type ScoredQuestion = Partial<QuestionOutcome> & Pick<QuestionOutcome, 'id' | 'type'>

/** One metric of the table (metric-table.ts): everything the product needs of it (docs/adding-a-metric.md). */
export interface Metric {
  /** The summary's key (and `<name>ByType`, `<name>P10`), the gate's, the baseline's and compare's name. */
  readonly name: string
  readonly label: string
  /** The gate's label of a per-type value (`<typeLabel>, multi`), when it is not the label's. */
  readonly typeLabel?: string
  readonly scope: MetricScope
  /** Where its per-question value comes from: the ranking, the answer, or the judge's verdict (its repeats then keep it). */
  readonly source: 'retrieval' | 'answer' | 'judge'
  /** The question outcome's field that holds its value, kept by the baseline when gated and by the judge's repeats. */
  readonly field: keyof QuestionOutcome | null
  /** A question's value; null leaves the question out (not applicable, nothing to judge). */
  readonly value: (question: ScoredQuestion) => number | null
  /** rate: a share of 0/1 values (Wilson interval); mean: the mean (seeded bootstrap interval); count: a sum, no interval. */
  readonly aggregate: 'rate' | 'mean' | 'count'
  /** The summary keeps the nearest-rank 10th percentile too, as `<name>P10`. */
  readonly p10: boolean
  readonly higherIsBetter: boolean
  /** The gate watches the overall value, or the overall and each answerable type's. */
  readonly gated: false | 'overall' | 'overall-and-types'
  /** Scored by the judge: advisory while the judge disagrees with people, and correctable by their labels. */
  readonly judgeDerived: boolean
  /** Per answerable type: in the summary (`<name>ByType`) and compare, or in compare alone. */
  readonly byType: false | 'summary' | 'compare'
  /** The paired test compare and the gate use; null: not compared. */
  readonly pairedTest: PairedTest | null
  /** Why the summary's value is null when no question in scope has a value. */
  readonly whenEmpty: string
  /** ... when questions in scope exist but none has a value, if that reason differs. */
  readonly whenAllNull?: string
  /** latest.md states it on a line of its own rather than in a table of metrics. */
  readonly reportedApart: boolean
  /** The metric it stands in for in the table of metrics when that one is null (doc-level nDCG@10 for nDCG@10). */
  readonly standsInFor?: string
  /** The check a clear answer must pass while the judge may block (src/gate/question-checks.ts), and its threshold knob. */
  readonly questionCheck?: { readonly name: string; readonly min: 'minFaithfulness' | 'minCoverage' }
  /** latest.md's name of a failing question's value, when it shows it there. */
  readonly questionLabel?: string
  /** How compare names a question's flip of this 0/1 metric, the bad way and the good way. */
  readonly flips?: { readonly worse: string; readonly better: string }
  /** Absent from older reports: their summary reads null. */
  readonly addedLater: boolean
  /** Also measured at each stage the system reports (`recall@rerank`): its field read from the stage's outcome. */
  readonly perStage: boolean
  /** Set on a metric measured at one stage (stageMetrics): the stage's name and the table's metric measured there. */
  readonly at?: { readonly stage: string; readonly metric: Metric }
}

/** What a metric is unless its file says otherwise: a mean, higher is better, watched by no gate, compared by nothing. */
const DEFAULTS = {
  field: null,
  aggregate: 'mean',
  p10: false,
  higherIsBetter: true,
  gated: false,
  judgeDerived: false,
  byType: false,
  pairedTest: null,
  reportedApart: false,
  addedLater: false,
  perStage: false,
} as const satisfies Partial<Metric>

/** What a metric's file must declare, `value` unless it is its numeric `field`'s; the rest defaults (DEFAULTS). */
type Declared = Pick<Metric, 'name' | 'label' | 'scope' | 'source' | 'whenEmpty'> &
  Partial<Metric> &
  ({ value: Metric['value'] } | { field: keyof QuestionOutcome })

/** A metric of the table from what its file declares, its literal types kept (the summary's schema is typed from them). */
export function defineMetric<const M extends Declared>(declared: M): Omit<typeof DEFAULTS, keyof M> & M & Pick<Metric, 'value'> {
  const own =
    declared.value ??
    ((q: ScoredQuestion) => {
      const value = q[declared.field!]
      return typeof value === 'number' ? value : null
    })
  const value = (q: ScoredQuestion) => {
    const mean = trialMean(declared.name, q)
    return mean === undefined ? own(q) : mean
  }
  return { ...DEFAULTS, ...declared, value }
}

/**
 * A question asked in several trials: its value is the mean of its trials' values (those not null), null when no
 * trial has one; undefined for a question asked once, whose value is its own.
 */
function trialMean(name: string, q: ScoredQuestion): number | null | undefined {
  if (q.trials === undefined) return undefined
  const values = q.trials.runs.flatMap((run) => (run.values[name] == null ? [] : [run.values[name]]))
  return values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length
}

/** A metric's value overall or for one answerable type, as the gate, compare and the charts list it. */
export interface MetricEntry {
  /** `recall`, or `recall.multi` for a type. */
  readonly name: string
  readonly label: string
  /** Its path in the summary, `notComputed` and `intervals`: `recall`, `recallByType.multi`. */
  readonly path: string
  readonly scope: MetricScope
  readonly test: PairedTest | null
  readonly higherIsBetter: boolean
  readonly judgeDerived: boolean
  readonly value: (question: ScoredQuestion) => number | null
  readonly metric: Metric
}

/** An entry that compare tests pairwise. */
export type PairedMetric = MetricEntry & { readonly test: PairedTest }

/** 1 or 0 for a boolean outcome; null when there is none. */
export const binary = (value: boolean | null | undefined): number | null => (value == null ? null : value ? 1 : 0)

/** Whether a question is in a metric's scope. */
export function inScope(scope: MetricScope, question: { type: QuestionType }): boolean {
  return scope === 'all' || (scope === 'answerable' ? question.type !== 'none' : question.type === scope)
}

/** A metric's key in the summary: its name, or `stages.<stage>.<name>` for one measured at a stage. */
export const summaryKey = (metric: Metric): string =>
  metric.at === undefined ? metric.name : `stages.${metric.at.stage}.${metric.at.metric.name}`

/**
 * The table's per-stage metrics at each stage named, in pipeline order: `recall@retrieve`, `mrr@retrieve`,
 * `recall@rerank`... A question without that stage has no value there. Never gated: the gate names the stage a gated
 * metric's regression first appears at instead.
 */
export function stageMetrics(table: readonly Metric[], stages: readonly string[]): Metric[] {
  return stages.flatMap((stage) =>
    table
      .filter((metric) => metric.perStage && metric.field !== null)
      .map((metric): Metric => {
        const field = metric.field as keyof StageOutcome & keyof QuestionOutcome
        return {
          ...metric,
          name: `${metric.name}@${stage}`,
          // "recall @ rerank": the stage's ranking, not the context, is what it measures.
          label: `${metric.typeLabel ?? metric.label} @ ${stage}`,
          gated: false,
          perStage: false,
          // A stage's value is the first trial's: trials keep the final ranking's metrics alone.
          value: ({ trials: _trials, ...q }) =>
            metric.value({ ...q, [field]: q.stages?.find((s) => s.name === stage)?.[field] ?? null }),
          at: { stage, metric },
        }
      }),
  )
}

/** The stages' names in the order the questions first report them (repeats already numbered). */
export const stageNamesOf = (questions: readonly ScoredQuestion[]): string[] => [
  ...new Set(questions.flatMap((q) => q.stages?.map((stage) => stage.name) ?? [])),
]

function entry(metric: Metric, type: (typeof ANSWERABLE_TYPES)[number] | null, label: string): MetricEntry {
  return {
    name: type === null ? metric.name : `${metric.name}.${type}`,
    label: type === null ? label : `${label}, ${type}`,
    path: type === null ? summaryKey(metric) : `${summaryKey(metric)}ByType.${type}`,
    scope: type ?? metric.scope,
    test: metric.pairedTest,
    higherIsBetter: metric.higherIsBetter,
    judgeDerived: metric.judgeDerived,
    value: metric.value,
    metric,
  }
}

/** The entry of a metric's overall value. */
export const overall = (metric: Metric): MetricEntry => entry(metric, null, metric.label)

/** The entries of a metric's per-type values, one per answerable type. */
export const perType = (metric: Metric, label = metric.label): MetricEntry[] =>
  ANSWERABLE_TYPES.map((type) => entry(metric, type, label))

/** The gated entries, in the table's order: recall, recall.single, ..., mrr, ndcg10, refusalRate, faithfulness, ... */
export function gatedEntries(table: readonly Metric[]): MetricEntry[] {
  return table.flatMap((metric) =>
    metric.gated === false
      ? []
      : [overall(metric), ...(metric.gated === 'overall-and-types' ? perType(metric, metric.typeLabel) : [])],
  )
}

/** The entries compare tests, each overall and then (for those measured per type) per answerable type. */
export function pairedEntries(table: readonly Metric[]): PairedMetric[] {
  return table.flatMap((metric) => {
    const test = metric.pairedTest
    if (test === null) return []
    return [overall(metric), ...(metric.byType === false ? [] : perType(metric))].map((e) => ({ ...e, test }))
  })
}

/**
 * A value of the summary by its path (`recallByType.multi`, `stages.bm25.v2.recall`); null when the summary does not
 * hold it. Each level takes the longest key the path starts with: a stage's name may hold a dot.
 */
export function summaryValue(summary: object, path: string): number | null {
  if (Object.hasOwn(summary, path)) {
    const value: unknown = (summary as Record<string, unknown>)[path]
    return typeof value === 'number' ? value : null
  }
  for (let dot = path.lastIndexOf('.'); dot > 0; dot = path.lastIndexOf('.', dot - 1)) {
    const inner: unknown = (summary as Record<string, unknown>)[path.slice(0, dot)]
    if (typeof inner === 'object' && inner !== null) return summaryValue(inner, path.slice(dot + 1))
  }
  return null
}

/** The outcome fields a table's metrics read from the source given: the judge's repeats keep the judge's. */
export function metricFields(table: readonly Metric[], which: (metric: Metric) => boolean): (keyof QuestionOutcome)[] {
  return [...new Set(table.filter(which).flatMap((metric) => (metric.field === null ? [] : [metric.field])))]
}
