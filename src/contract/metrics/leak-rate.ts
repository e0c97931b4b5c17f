import { binary, defineMetric } from './metric.ts'

/**
 * Leak rate: of the questions with a userContext, the share that saw a document its asker may not read, in a stage,
 * the ranking, the context, a citation or the answer (docs/security.md). Gated against config.maxLeakRate, not the
 * baseline; a question without a userContext is not checked.
 */
export const LEAK_RATE = defineMetric({
  name: 'leakRate',
  label: 'permission leak rate',
  scope: 'all',
  source: 'retrieval',
  value: (q) => (q.leaks == null ? null : binary(q.leaks.length > 0)),
  aggregate: 'rate',
  higherIsBetter: false,
  pairedTest: 'mcnemar-exact',
  whenEmpty: 'no question has a userContext',
  flips: { worse: 'no leak -> leaks', better: 'leaks -> no leak' },
  addedLater: true,
  reportedApart: true,
})
