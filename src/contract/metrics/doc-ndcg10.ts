import { defineMetric } from './metric.ts'

/** nDCG@10 over documents, each at the rank of its best chunk: trec_eval's ndcg_cut.10 on `rag-eval trec-export`'s files. */
export const DOC_NDCG_10 = defineMetric({
  name: 'docNdcg10',
  label: 'nDCG@10 (doc-level)',
  scope: 'answerable',
  source: 'retrieval',
  field: 'docNdcg10',
  whenEmpty: 'no answerable questions in the golden set',
  reportedApart: true,
  standsInFor: 'ndcg10',
})
