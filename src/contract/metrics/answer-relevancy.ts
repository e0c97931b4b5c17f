import type { Metric } from './metric.ts'

/** Answer relevancy: how much of what was asked the answer talks about, 0..1; the mean and P10 over the answers with a score. */
export const ANSWER_RELEVANCY = {
  name: 'answerRelevancy',
  label: 'answer relevancy',
  scope: 'all',
  source: 'judge',
  field: 'answerRelevancy',
  value: (q) => q.answerRelevancy ?? null,
  aggregate: 'mean',
  p10: true,
  higherIsBetter: true,
  gated: 'overall',
  judgeDerived: true,
  byType: 'compare',
  pairedTest: 'paired-permutation',
  whenEmpty: 'no answer could be scored',
  reportedApart: false,
  questionLabel: 'relevancy',
  addedLater: false,
} as const satisfies Metric
