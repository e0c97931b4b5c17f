import { binary, defineMetric } from './metric.ts'

/** Contradictions handled: of the contradiction questions with a verdict, the share whose answer follows the governing document. */
export const CONTRADICTION_HANDLED_RATE = defineMetric({
  name: 'contradictionHandledRate',
  label: 'contradiction handled',
  scope: 'answerable',
  source: 'answer',
  field: 'contradictionHandled',
  value: (q) => binary(q.contradictionHandled),
  aggregate: 'rate',
  whenEmpty: 'no contradiction question with a governing document',
})
