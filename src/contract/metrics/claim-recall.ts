import { defineMetric } from './metric.ts'

/**
 * Claim recall (RAGChecker's, a diagnostic of the retriever): of the gold answer's claims, the share some context
 * chunk entails; the mean over the answerable questions with a gold claim. Null: no gold answer or no decidable
 * gold claim (none questions are out of scope), no answer to judge, a judge error. A refusal is scored as any answer.
 */
export const CLAIM_RECALL = defineMetric({
  name: 'claimRecall',
  label: 'claim recall',
  scope: 'answerable',
  source: 'judge',
  field: 'claimRecall',
  judgeDerived: true,
  whenEmpty: 'no answered question with a gold answer',
  questionLabel: 'claim recall',
  addedLater: true,
})
