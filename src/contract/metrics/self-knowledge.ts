import { defineMetric } from './metric.ts'

/**
 * Self-knowledge (RAGChecker's): the share of the answer's claims that no context chunk entails but that are correct
 * (the gold answer entails them): right, but not from the context. Lower is better for a system that should answer
 * from its documents. Null: no answer claim (a refusal), or as claim recall.
 */
export const SELF_KNOWLEDGE = defineMetric({
  name: 'selfKnowledge',
  label: 'self-knowledge',
  scope: 'answerable',
  source: 'judge',
  field: 'selfKnowledge',
  higherIsBetter: false,
  judgeDerived: true,
  whenEmpty: 'no answer made a claim',
  questionLabel: 'self-knowledge',
  addedLater: true,
})
