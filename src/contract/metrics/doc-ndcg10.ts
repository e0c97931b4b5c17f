import type { Metric } from './metric.ts'

/** nDCG@10 over documents, each at the rank of its best chunk: trec_eval's ndcg_cut.10 on `rag-eval trec-export`'s files. */
export const DOC_NDCG_10 = {
  name: 'docNdcg10',
  label: 'nDCG@10 (doc-level)',
  scope: 'answerable',
  source: 'retrieval',
  field: 'docNdcg10',
  value: (q) => q.docNdcg10 ?? null,
  aggregate: 'mean',
  p10: false,
  higherIsBetter: true,
  gated: false,
  judgeDerived: false,
  byType: false,
  pairedTest: null,
  whenEmpty: 'no answerable questions in the golden set',
  reportedApart: true,
  standsInFor: 'ndcg10',
  addedLater: false,
} as const satisfies Metric
