import { defineMetric } from './metric.ts'

/** RAGAS's ID-based context precision, the mean over every question where it is defined (RAGAS's nanmean). */
export const ID_BASED_CONTEXT_PRECISION = defineMetric({
  name: 'idBasedContextPrecision',
  label: 'ID-based context precision',
  scope: 'all',
  source: 'retrieval',
  field: 'idBasedContextPrecision',
  whenEmpty: 'no question has a context',
  reportedApart: true,
  addedLater: true,
})
