import type { Metric } from './metric.ts'

/** RAGAS's ID-based context recall, the mean over every question where it is defined (RAGAS's nanmean). */
export const ID_BASED_CONTEXT_RECALL = {
  name: 'idBasedContextRecall',
  label: 'ID-based context recall',
  scope: 'all',
  source: 'retrieval',
  field: 'idBasedContextRecall',
  value: (q) => q.idBasedContextRecall ?? null,
  aggregate: 'mean',
  p10: false,
  higherIsBetter: true,
  gated: false,
  judgeDerived: false,
  byType: false,
  pairedTest: null,
  whenEmpty: 'no question has answer documents',
  reportedApart: true,
  addedLater: true,
} as const satisfies Metric
