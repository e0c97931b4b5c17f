import { binary, defineMetric } from './metric.ts'

/** Recall (context hit): 1 when the context holds what the question's type needs, else 0 (docs/metrics.md); the mean over the answerable questions. */
export const RECALL = defineMetric({
  name: 'recall',
  label: 'recall (context)',
  typeLabel: 'recall',
  scope: 'answerable',
  source: 'retrieval',
  field: 'hit',
  value: (q) => binary(q.hit),
  aggregate: 'rate',
  perStage: true,
  gated: 'overall-and-types',
  byType: 'summary',
  pairedTest: 'mcnemar-exact',
  whenEmpty: 'no answerable questions in the golden set',
  flips: { worse: 'hit -> miss', better: 'miss -> hit' },
})
