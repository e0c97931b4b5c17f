import { defineMetric } from './metric.ts'

/** Citation precision: cited chunks that support their sentence over citations, fabricated ones included (docs/metrics.md). */
export const CITATION_PRECISION = defineMetric({
  name: 'citationPrecision',
  label: 'citation precision',
  scope: 'all',
  source: 'judge',
  field: 'citationPrecision',
  gated: 'overall',
  judgeDerived: true,
  pairedTest: 'paired-permutation',
  whenEmpty: 'no answer cited a chunk',
  questionLabel: 'citation precision',
  addedLater: true,
})
