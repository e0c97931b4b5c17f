import { z } from 'zod'
import { QUESTION_TYPES, type QuestionType } from './question-types.ts'

/** Names other tools use for the same types (RAG gold JSONL, RAGAS): accepted on input, stored canonical. */
export const QUESTION_TYPE_ALIASES = { lookup: 'single', 'multi-hop': 'multi', abstention: 'none' } as const satisfies Record<
  string,
  QuestionType
>

const typeNames = [...QUESTION_TYPES, ...(Object.keys(QUESTION_TYPE_ALIASES) as (keyof typeof QUESTION_TYPE_ALIASES)[])] as const

export const QuestionTypeSchema = z
  .enum(typeNames, {
    error: (issue) =>
      `unknown type ${JSON.stringify(issue.input)}; expected one of ${QUESTION_TYPES.join(', ')} ` +
      `(aliases: ${Object.keys(QUESTION_TYPE_ALIASES).join(', ')})`,
  })
  .transform((name): QuestionType =>
    name in QUESTION_TYPE_ALIASES ? QUESTION_TYPE_ALIASES[name as keyof typeof QUESTION_TYPE_ALIASES] : (name as QuestionType),
  )

/** Who asks a question (tenant, role, permissions...): any JSON object, passed to the system verbatim. */
export const UserContextSchema = z.record(z.string(), z.unknown(), {
  error: 'expected a JSON object such as {"tenant": "acme", "role": "admin"}',
})

export type UserContext = z.output<typeof UserContextSchema>

export const GoldenQuestionSchema = z
  .object({
    id: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'expected an id of letters, digits, . _ -')
      .describe('Stable question id, e.g. q-001'),
    type: QuestionTypeSchema.describe('single | multi | contradiction | none (aliases lookup, multi-hop, abstention)'),
    question: z.string().trim().min(1, 'expected the question text').describe('The question as a user would ask it'),
    answerDocIds: z.array(z.string().min(1)).describe('Documents that answer it; empty for none'),
    goldAnswer: z.string().trim().min(1).optional().describe('One or two sentences; required unless type is none'),
    governingDocId: z.string().min(1).optional().describe('contradiction only: the document whose answer governs'),
    notes: z.string().optional().describe('Why the question exists, distractors it meets'),
    userContext: UserContextSchema.optional().describe(
      'Who asks: any JSON object (tenant, role, permissions...), passed verbatim to the system with the question',
    ),
  })
  .strict()
  .superRefine((q, ctx) => {
    if (q.type === 'none' && q.answerDocIds.length > 0)
      ctx.addIssue({ code: 'custom', path: ['answerDocIds'], message: 'a none question has no answer documents; expected []' })
    if (q.type !== 'none' && q.answerDocIds.length === 0)
      ctx.addIssue({ code: 'custom', path: ['answerDocIds'], message: `a ${q.type} question needs at least one answer document` })
    if (q.type === 'multi' && new Set(q.answerDocIds).size < 2)
      ctx.addIssue({
        code: 'custom',
        path: ['answerDocIds'],
        message: 'a multi question needs at least two distinct answer documents',
      })
    if (new Set(q.answerDocIds).size !== q.answerDocIds.length)
      ctx.addIssue({ code: 'custom', path: ['answerDocIds'], message: 'lists a document twice' })
    if (q.type !== 'none' && q.goldAnswer === undefined)
      ctx.addIssue({
        code: 'custom',
        path: ['goldAnswer'],
        message: `a ${q.type} question needs a goldAnswer of one or two sentences`,
      })
    if (q.governingDocId !== undefined && q.type !== 'contradiction')
      ctx.addIssue({
        code: 'custom',
        path: ['governingDocId'],
        message: 'only contradiction questions have a governing document',
      })
    if (q.governingDocId !== undefined && !q.answerDocIds.includes(q.governingDocId))
      ctx.addIssue({ code: 'custom', path: ['governingDocId'], message: `${q.governingDocId} must be one of answerDocIds` })
  })

export type GoldenQuestion = z.output<typeof GoldenQuestionSchema>

export const GoldenSetSchema = z
  .object({
    $schema: z.string().optional(),
    questions: z.array(GoldenQuestionSchema),
  })
  .strict()

export type GoldenSet = z.output<typeof GoldenSetSchema>

/** The JSON Schema editors use to complete and check golden-set files (generated from the zod schema). */
export function goldenSetJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(GoldenSetSchema, { io: 'input', unrepresentable: 'any' })
}
