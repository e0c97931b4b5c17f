import { defineMetric } from './metric.ts'

/** MRR: the mean over the answerable questions of 1/rank of the first ranked chunk of an answer document (0: none). */
export const MRR = defineMetric({
  name: 'mrr',
  label: 'MRR',
  scope: 'answerable',
  source: 'retrieval',
  field: 'reciprocalRank',
  gated: 'overall',
  perStage: true,
  byType: 'summary',
  pairedTest: 'paired-permutation',
  whenEmpty: 'no answerable questions in the golden set',
  questionLabel: 'reciprocal rank',
})
