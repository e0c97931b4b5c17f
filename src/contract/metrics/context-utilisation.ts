import { defineMetric } from './metric.ts'

/**
 * Context utilisation (RAGChecker's): of the gold answer's claims some context chunk entails, the share the answer
 * states; a refusal states none (0). Null when the context entails no gold claim (nothing to use), or as claim recall.
 */
export const CONTEXT_UTILISATION = defineMetric({
  name: 'contextUtilisation',
  label: 'context utilisation',
  scope: 'answerable',
  source: 'judge',
  field: 'contextUtilisation',
  judgeDerived: true,
  whenEmpty: 'no context held a gold claim',
  questionLabel: 'context utilisation',
  addedLater: true,
})
