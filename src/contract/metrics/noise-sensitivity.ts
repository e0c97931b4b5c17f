import { defineMetric } from './metric.ts'

/**
 * Noise sensitivity (RAGChecker's, in irrelevant chunks): the share of the answer's claims that are wrong (the gold
 * answer does not entail them) and come from noise (a chunk of no answer document entails them, no chunk of one does).
 * Lower is better. Null: no answer claim (a refusal), or as claim recall.
 */
export const NOISE_SENSITIVITY = defineMetric({
  name: 'noiseSensitivity',
  label: 'noise sensitivity',
  scope: 'answerable',
  source: 'judge',
  field: 'noiseSensitivity',
  higherIsBetter: false,
  judgeDerived: true,
  whenEmpty: 'no answer made a claim',
  questionLabel: 'noise sensitivity',
  addedLater: true,
})
