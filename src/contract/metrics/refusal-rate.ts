import { binary, type Metric } from './metric.ts'

/** Refusal rate: of the none questions with a clear answer or refusal, the share refused. */
export const REFUSAL_RATE = {
  name: 'refusalRate',
  label: 'refusal rate (none)',
  scope: 'none',
  source: 'judge',
  field: 'refused',
  value: (q) => binary(q.refused),
  aggregate: 'rate',
  p10: false,
  higherIsBetter: true,
  gated: 'overall',
  judgeDerived: false,
  byType: false,
  pairedTest: 'mcnemar-exact',
  whenEmpty: 'no none question got a clear answer or refusal',
  reportedApart: false,
  flips: { worse: 'refused -> answered', better: 'answered -> refused' },
  addedLater: false,
} as const satisfies Metric
