import { z } from 'zod'
import { EvalConfigSchema } from '../config/eval-config.ts'
import { QUESTION_TYPES } from '../load/golden-set-schema.ts'

/**
 * baseline/summary.json: the accepted run's gated metrics and what they were measured with, so a
 * baseline measured under another config, golden set, corpus or judge prompt is detected and named.
 */
export const BaselineSummarySchema = z
  .object({
    schemaVersion: z.literal(1),
    system: z.string(),
    config: EvalConfigSchema,
    models: z.object({ generator: z.string(), judge: z.string() }).strict(),
    judgePromptsHash: z.string().nullable(),
    goldenSetHash: z.string(),
    corpusHash: z.string(),
    metrics: z.record(z.string(), z.number().nullable()),
  })
  .strict()
export type BaselineSummary = z.infer<typeof BaselineSummarySchema>

/** baseline/questions.json: each question's accepted outcome, sorted by id. */
export const BaselineQuestionSchema = z
  .object({
    id: z.string(),
    type: z.enum(QUESTION_TYPES),
    hit: z.boolean(),
    reciprocalRank: z.number().nullable(),
    ndcg10: z.number().nullable(),
    refused: z.boolean().nullable(),
    faithfulness: z.number().nullable(),
    answerRelevancy: z.number().nullable(),
    coverage: z.number().nullable(),
  })
  .strict()
export type BaselineQuestion = z.infer<typeof BaselineQuestionSchema>

export const BaselineQuestionsSchema = z.object({ schemaVersion: z.literal(1), questions: z.array(BaselineQuestionSchema) }).strict()

export interface Baseline {
  summary: BaselineSummary
  questions: BaselineQuestion[]
}
