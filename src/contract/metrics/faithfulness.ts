import { defineMetric } from './metric.ts'

/** Faithfulness: supported claims over decidable ones (docs/metrics.md); the mean and P10 over the answers with a score. */
export const FAITHFULNESS = defineMetric({
  name: 'faithfulness',
  label: 'faithfulness',
  scope: 'all',
  source: 'judge',
  field: 'faithfulness',
  p10: true,
  gated: 'overall',
  judgeDerived: true,
  byType: 'compare',
  pairedTest: 'paired-permutation',
  whenEmpty: 'no answer had a decidable claim',
  questionCheck: { name: 'faithful', min: 'minFaithfulness' },
  questionLabel: 'faithfulness',
})
