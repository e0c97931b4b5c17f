import { defineMetric } from './metric.ts'

/** RAGAS's ID-based context recall, the mean over every question where it is defined (RAGAS's nanmean). */
export const ID_BASED_CONTEXT_RECALL = defineMetric({
  name: 'idBasedContextRecall',
  label: 'ID-based context recall',
  scope: 'all',
  source: 'retrieval',
  field: 'idBasedContextRecall',
  whenEmpty: 'no question has answer documents',
  reportedApart: true,
  addedLater: true,
})
