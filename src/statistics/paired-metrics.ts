import { ANSWERABLE_TYPES, type QuestionType } from '../contract/question-types.ts'
import type { QuestionMetrics } from '../contract/question-metrics.ts'

/**
 * What a paired comparison reads of a question: a report's outcome, or a baseline record (which keeps
 * no recall@k: that metric is then null).
 */
export type ScoredQuestion = QuestionMetrics & { id: string; type: QuestionType; recallAtK?: number | null }

/** The paired test that fits a metric's per-question values (docs/statistics.md). */
export type PairedTest = 'mcnemar-exact' | 'paired-permutation'

/** Which questions a metric is measured over. */
export type MetricScope = 'all' | 'answerable' | QuestionType

/**
 * A summary metric as the mean of per-question values, so two runs can be compared question by question.
 * Binary outcomes (a hit, a refusal) are 1 or 0 and take exact McNemar; continuous values take the
 * paired permutation test. A value of null (the metric does not apply, the judge failed) leaves the
 * question out of the comparison.
 */
export interface PairedMetric {
  /** `recall`, or `recall.single` for a type: the gated metrics' names where they overlap. */
  name: string
  label: string
  test: PairedTest
  higherIsBetter: boolean
  scope: MetricScope
  value: (q: ScoredQuestion) => number | null
}

const binary = (value: boolean | null): number | null => (value === null ? null : value ? 1 : 0)

/** Whether a question is in a metric's scope. */
export function inScope(scope: MetricScope, question: { type: QuestionType }): boolean {
  return scope === 'all' || (scope === 'answerable' ? question.type !== 'none' : question.type === scope)
}

/** The metrics a comparison reports, overall; `byType` adds one per answerable type. */
const OVERALL: readonly (PairedMetric & { byType: boolean })[] = [
  {
    name: 'recall',
    label: 'recall (context)',
    test: 'mcnemar-exact',
    higherIsBetter: true,
    scope: 'answerable',
    value: (q) => binary(q.hit),
    byType: true,
  },
  {
    name: 'recallAtK',
    label: 'recall@k',
    test: 'paired-permutation',
    higherIsBetter: true,
    scope: 'answerable',
    value: (q) => q.recallAtK ?? null,
    byType: true,
  },
  {
    name: 'mrr',
    label: 'MRR',
    test: 'paired-permutation',
    higherIsBetter: true,
    scope: 'answerable',
    value: (q) => q.reciprocalRank,
    byType: true,
  },
  {
    name: 'ndcg10',
    label: 'nDCG@10',
    test: 'paired-permutation',
    higherIsBetter: true,
    scope: 'answerable',
    value: (q) => q.ndcg10,
    byType: true,
  },
  {
    name: 'refusalRate',
    label: 'refusal rate (none)',
    test: 'mcnemar-exact',
    higherIsBetter: true,
    scope: 'none',
    value: (q) => binary(q.refused),
    byType: false,
  },
  {
    name: 'falseRefusalRate',
    label: 'false refusals (answerable)',
    test: 'mcnemar-exact',
    higherIsBetter: false,
    scope: 'answerable',
    value: (q) => binary(q.refused),
    byType: false,
  },
  {
    name: 'faithfulness',
    label: 'faithfulness',
    test: 'paired-permutation',
    higherIsBetter: true,
    scope: 'all',
    value: (q) => q.faithfulness,
    byType: true,
  },
  {
    name: 'answerRelevancy',
    label: 'answer relevancy',
    test: 'paired-permutation',
    higherIsBetter: true,
    scope: 'all',
    value: (q) => q.answerRelevancy,
    byType: true,
  },
  {
    name: 'coverage',
    label: 'coverage',
    test: 'paired-permutation',
    higherIsBetter: true,
    scope: 'all',
    value: (q) => q.coverage,
    byType: true,
  },
]

/**
 * Every metric a comparison reports, each overall and then (for those measured per type) per answerable
 * type: `recall`, `recall.single`, `recall.multi`, `recall.contradiction`, `recallAtK`, ...
 */
export const PAIRED_METRICS: readonly PairedMetric[] = OVERALL.flatMap(({ byType, ...metric }) => [
  metric,
  ...(byType
    ? ANSWERABLE_TYPES.map((type) => ({
        ...metric,
        name: `${metric.name}.${type}`,
        label: `${metric.label}, ${type}`,
        scope: type,
      }))
    : []),
])

/** The paired metric of a name (`recall.multi`); undefined for a name no comparison reports. */
export function pairedMetric(name: string): PairedMetric | undefined {
  return PAIRED_METRICS.find((metric) => metric.name === name)
}
