import { defineMetric } from './metric.ts'

/** Citation recall: sentences needing support that cite a supporting chunk over sentences needing support (docs/metrics.md). */
export const CITATION_RECALL = defineMetric({
  name: 'citationRecall',
  label: 'citation recall',
  scope: 'all',
  source: 'judge',
  field: 'citationRecall',
  gated: 'overall',
  judgeDerived: true,
  pairedTest: 'paired-permutation',
  whenEmpty: 'no answer had a sentence needing support',
  questionLabel: 'citation recall',
  addedLater: true,
})
