import type { Metric } from './metric.ts'

/** Coverage: the share of the gold answer's key facts the answer contains; the mean and P10 over the answers with a score. */
export const COVERAGE = {
  name: 'coverage',
  label: 'coverage',
  scope: 'all',
  source: 'judge',
  field: 'coverage',
  value: (q) => q.coverage ?? null,
  aggregate: 'mean',
  p10: true,
  higherIsBetter: true,
  gated: 'overall',
  judgeDerived: true,
  byType: 'compare',
  pairedTest: 'paired-permutation',
  whenEmpty: 'no answer to an answerable question',
  reportedApart: false,
  questionLabel: 'coverage',
  addedLater: false,
} as const satisfies Metric
