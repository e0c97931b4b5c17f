import type { Summary } from '../contract/report-schema.ts'

/** A summary metric the gate watches. All are "higher is better". */
export interface GatedMetric {
  /** Stable name used in baselines, test names and regression tables. */
  name: string
  label: string
  read: (summary: Summary) => number | null
  /** Path of the metric in `summary.notComputed`, for the reason when it is null. */
  path: string
  /** Scored by the judge: advisory (never blocking) while the judge's agreement with people is too low. */
  judgeDerived?: true
}

/** The gated metrics, in report order: recall (overall and per type), MRR, nDCG@10, then generation metrics. */
export const GATED_METRICS: readonly GatedMetric[] = [
  { name: 'recall', label: 'recall (context)', read: (s) => s.recall, path: 'recall' },
  { name: 'recall.single', label: 'recall, single', read: (s) => s.recallByType.single, path: 'recallByType.single' },
  { name: 'recall.multi', label: 'recall, multi', read: (s) => s.recallByType.multi, path: 'recallByType.multi' },
  {
    name: 'recall.contradiction',
    label: 'recall, contradiction',
    read: (s) => s.recallByType.contradiction,
    path: 'recallByType.contradiction',
  },
  { name: 'mrr', label: 'MRR', read: (s) => s.mrr, path: 'mrr' },
  { name: 'ndcg10', label: 'nDCG@10', read: (s) => s.ndcg10, path: 'ndcg10' },
  { name: 'refusalRate', label: 'refusal rate (none)', read: (s) => s.refusalRate, path: 'refusalRate' },
  { name: 'faithfulness', label: 'faithfulness', read: (s) => s.faithfulness, path: 'faithfulness', judgeDerived: true },
  {
    name: 'answerRelevancy',
    label: 'answer relevancy',
    read: (s) => s.answerRelevancy,
    path: 'answerRelevancy',
    judgeDerived: true,
  },
  { name: 'coverage', label: 'coverage', read: (s) => s.coverage, path: 'coverage', judgeDerived: true },
]

/** The gated metrics' values keyed by name (null where the run could not compute them). */
export function gatedValues(summary: Summary): Record<string, number | null> {
  return Object.fromEntries(GATED_METRICS.map((metric) => [metric.name, metric.read(summary)]))
}
