import type { Metric } from './metric.ts'

/** Faithfulness: supported claims over decidable ones (docs/metrics.md); the mean and P10 over the answers with a score. */
export const FAITHFULNESS = {
  name: 'faithfulness',
  label: 'faithfulness',
  scope: 'all',
  source: 'judge',
  field: 'faithfulness',
  value: (q) => q.faithfulness ?? null,
  aggregate: 'mean',
  p10: true,
  higherIsBetter: true,
  gated: 'overall',
  judgeDerived: true,
  byType: 'compare',
  pairedTest: 'paired-permutation',
  whenEmpty: 'no answer had a decidable claim',
  reportedApart: false,
  questionLabel: 'faithfulness',
  addedLater: false,
} as const satisfies Metric
