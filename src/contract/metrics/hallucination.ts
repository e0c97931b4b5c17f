import { defineMetric } from './metric.ts'

/**
 * Hallucination (RAGChecker's): the share of the answer's claims that no context chunk entails and that are wrong
 * (the gold answer does not entail them). Lower is better. Null: no answer claim (a refusal), or as claim recall.
 */
export const HALLUCINATION = defineMetric({
  name: 'hallucination',
  label: 'hallucination',
  scope: 'answerable',
  source: 'judge',
  field: 'hallucination',
  higherIsBetter: false,
  judgeDerived: true,
  whenEmpty: 'no answer made a claim',
  questionLabel: 'hallucination',
  addedLater: true,
})
