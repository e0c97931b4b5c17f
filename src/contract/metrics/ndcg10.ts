import { defineMetric } from './metric.ts'

/** nDCG@10 at chunk level (docs/metrics.md); null for a system that reports no chunk counts, docNdcg10 standing in. */
export const NDCG_10 = defineMetric({
  name: 'ndcg10',
  label: 'nDCG@10',
  scope: 'answerable',
  source: 'retrieval',
  field: 'ndcg10',
  gated: 'overall',
  byType: 'summary',
  pairedTest: 'paired-permutation',
  whenEmpty: 'no answerable questions in the golden set',
  whenAllNull:
    'the system does not report its chunk counts per document (chunkCountByDoc), ' +
    'which the ideal ranking needs: docNdcg10, the doc-level nDCG@10, stands in for it',
  questionLabel: 'nDCG@10',
})
