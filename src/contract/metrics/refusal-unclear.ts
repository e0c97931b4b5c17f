import type { Metric } from './metric.ts'

/** Unclear refusals: the answers with a refusal phrase beside substance, counted apart and left out of both refusal rates. */
export const REFUSAL_UNCLEAR = {
  name: 'refusalUnclear',
  label: 'unclear refusals',
  scope: 'all',
  source: 'judge',
  field: null,
  value: (q) => (q.generation?.refusal === 'unclear' ? 1 : 0),
  aggregate: 'count',
  p10: false,
  higherIsBetter: false,
  gated: false,
  judgeDerived: false,
  byType: false,
  pairedTest: null,
  whenEmpty: 'no answer was judged',
  reportedApart: true,
  addedLater: false,
} as const satisfies Metric
