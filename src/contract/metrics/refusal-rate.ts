import { binary, defineMetric } from './metric.ts'

/** Refusal rate: of the none questions with a clear answer or refusal, the share refused. */
export const REFUSAL_RATE = defineMetric({
  name: 'refusalRate',
  label: 'refusal rate (none)',
  scope: 'none',
  source: 'judge',
  field: 'refused',
  value: (q) => binary(q.refused),
  aggregate: 'rate',
  gated: 'overall',
  pairedTest: 'mcnemar-exact',
  whenEmpty: 'no none question got a clear answer or refusal',
  flips: { worse: 'refused -> answered', better: 'answered -> refused' },
})
