import { defineMetric } from './metric.ts'

/** Answer relevancy: how much of what was asked the answer talks about, 0..1; the mean and P10 over the answers with a score. */
export const ANSWER_RELEVANCY = defineMetric({
  name: 'answerRelevancy',
  label: 'answer relevancy',
  scope: 'all',
  source: 'judge',
  field: 'answerRelevancy',
  p10: true,
  gated: 'overall',
  judgeDerived: true,
  byType: 'compare',
  pairedTest: 'paired-permutation',
  whenEmpty: 'no answer could be scored',
  questionLabel: 'relevancy',
})
