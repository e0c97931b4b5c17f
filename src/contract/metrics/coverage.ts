import { defineMetric } from './metric.ts'

/** Coverage: the share of the gold answer's key facts the answer contains; the mean and P10 over the answers with a score. */
export const COVERAGE = defineMetric({
  name: 'coverage',
  label: 'coverage',
  scope: 'all',
  source: 'judge',
  field: 'coverage',
  p10: true,
  gated: 'overall',
  judgeDerived: true,
  byType: 'compare',
  pairedTest: 'paired-permutation',
  whenEmpty: 'no answer to an answerable question',
  questionCheck: { name: 'covers gold answer', min: 'minCoverage' },
  questionLabel: 'coverage',
})
