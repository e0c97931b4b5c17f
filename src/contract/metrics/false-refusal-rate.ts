import { binary, type Metric } from './metric.ts'

/** False-refusal rate: of the answerable questions with a clear answer or refusal, the share refused (lower is better). */
export const FALSE_REFUSAL_RATE = {
  name: 'falseRefusalRate',
  label: 'false refusals (answerable)',
  scope: 'answerable',
  source: 'judge',
  field: 'refused',
  value: (q) => binary(q.refused),
  aggregate: 'rate',
  p10: false,
  higherIsBetter: false,
  gated: false,
  judgeDerived: false,
  byType: false,
  pairedTest: 'mcnemar-exact',
  whenEmpty: 'no answerable question got a clear answer or refusal',
  reportedApart: false,
  flips: { worse: 'answered -> refused', better: 'refused -> answered' },
  addedLater: false,
} as const satisfies Metric
