import type { Metric } from './metric.ts'

/** Recall@k: the share of answer documents among the top k ranked chunks' documents, ignoring the budget. */
export const RECALL_AT_K = {
  name: 'recallAtK',
  label: 'recall@k',
  scope: 'answerable',
  source: 'retrieval',
  field: 'recallAtK',
  value: (q) => q.recallAtK ?? null,
  aggregate: 'mean',
  p10: false,
  higherIsBetter: true,
  gated: false,
  judgeDerived: false,
  byType: 'summary',
  pairedTest: 'paired-permutation',
  whenEmpty: 'no answerable questions in the golden set',
  reportedApart: false,
  addedLater: false,
} as const satisfies Metric
