import { defineMetric } from './metric.ts'

/** Recall@k: the share of answer documents among the top k ranked chunks' documents, ignoring the budget. */
export const RECALL_AT_K = defineMetric({
  name: 'recallAtK',
  label: 'recall@k',
  scope: 'answerable',
  source: 'retrieval',
  field: 'recallAtK',
  byType: 'summary',
  pairedTest: 'paired-permutation',
  whenEmpty: 'no answerable questions in the golden set',
})
