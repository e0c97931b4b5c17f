import type { Metric } from './metric.ts'

/** MRR: the mean over the answerable questions of 1/rank of the first ranked chunk of an answer document (0: none). */
export const MRR = {
  name: 'mrr',
  label: 'MRR',
  scope: 'answerable',
  source: 'retrieval',
  field: 'reciprocalRank',
  value: (q) => q.reciprocalRank ?? null,
  aggregate: 'mean',
  p10: false,
  higherIsBetter: true,
  gated: 'overall',
  judgeDerived: false,
  byType: 'summary',
  pairedTest: 'paired-permutation',
  whenEmpty: 'no answerable questions in the golden set',
  reportedApart: false,
  questionLabel: 'reciprocal rank',
  addedLater: false,
} as const satisfies Metric
