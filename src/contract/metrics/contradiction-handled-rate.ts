import { binary, type Metric } from './metric.ts'

/** Contradictions handled: of the contradiction questions with a verdict, the share whose answer follows the governing document. */
export const CONTRADICTION_HANDLED_RATE = {
  name: 'contradictionHandledRate',
  label: 'contradiction handled',
  scope: 'answerable',
  source: 'answer',
  field: 'contradictionHandled',
  value: (q) => binary(q.contradictionHandled),
  aggregate: 'rate',
  p10: false,
  higherIsBetter: true,
  gated: false,
  judgeDerived: false,
  byType: false,
  pairedTest: null,
  whenEmpty: 'no contradiction question with a governing document',
  reportedApart: false,
  addedLater: false,
} as const satisfies Metric
