import { z } from 'zod'
import { QUESTION_TYPES, type QuestionType } from './question-types.ts'
import { HistorySchema } from './history-schema.ts'
import { ProvenanceSchema } from './provenance-schema.ts'

export { HISTORY_ROLES, HistorySchema, HistoryTurnSchema, type HistoryTurn } from './history-schema.ts'

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

/**
 * Characters no reader sees and XML cannot hold even escaped (C0 controls but tab and newlines, U+FFFE, U+FFFF), as
 * a form feed in text copied from a PDF: golden:check warns about them, the SVG charts write spaces.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARACTERS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g

/** Who asks a question (tenant, role, permissions...): any JSON object, passed to the system verbatim. */
export const UserContextSchema = z.record(z.string(), z.unknown(), {
  error: 'expected a JSON object such as {"tenant": "acme", "role": "admin"}',
})

export type UserContext = z.output<typeof UserContextSchema>

/** The highest relevance grade (TREC's graded scale: 0 not relevant, 1 partly, 2 relevant, 3 the primary source). */
export const MAX_GRADE = 3

/** A question's graded documents: document id -> grade 0..3 (0 = judged not relevant). */
const gradeError = {
  error: (issue: { input?: unknown }) => `expected a grade, an integer 0..${MAX_GRADE} (got ${JSON.stringify(issue.input)})`,
}
export const RelevanceSchema = z.record(
  z.string().min(1),
  z.number(gradeError).int(gradeError).min(0, gradeError).max(MAX_GRADE, gradeError),
  {
    error: 'expected a JSON object of document id -> grade, such as {"pricing": 3, "faq": 1}',
  },
)

export type Relevance = z.output<typeof RelevanceSchema>

export { ProvenanceSchema, type Provenance } from './provenance-schema.ts'

/** A question's id: letters, digits, . _ - (not starting with a separator). */
export const GOLDEN_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/

export const GoldenQuestionSchema = z
  .object({
    id: z.string().regex(GOLDEN_ID, 'expected an id of letters, digits, . _ -').describe('Stable question id, e.g. q-001'),
    type: QuestionTypeSchema.describe('single | multi | contradiction | none (aliases lookup, multi-hop, abstention)'),
    history: HistorySchema.optional().describe(
      'Follow-up questions only: the conversation before the question, oldest first, each turn {role: user | assistant, content}',
    ),
    question: z.string().trim().min(1, 'expected the question text').describe('The question as a user would ask it'),
    answerDocIds: z.array(z.string().min(1)).describe('Documents that answer it; empty for none'),
    relevance: RelevanceSchema.optional().describe(
      'Graded relevance (optional): document id -> grade 0..3, 0 judged not relevant, 3 the primary source; the documents graded 1 or more are exactly answerDocIds',
    ),
    goldAnswer: z.string().trim().min(1).optional().describe('One or two sentences; required unless type is none'),
    governingDocId: z.string().min(1).optional().describe('contradiction only: the document whose answer governs'),
    notes: z.string().optional().describe('Why the question exists, distractors it meets'),
    userContext: UserContextSchema.optional().describe(
      'Who asks: any JSON object (tenant, role, permissions...), passed verbatim to the system with the question',
    ),
    probeDocIds: z
      .array(z.string().min(1))
      .min(1)
      .optional()
      .describe(
        'A cross-tenant probe (type none, with a userContext): the documents of another tenant that hold its answer; the right outcome is a refusal, and no leak',
      ),
    provenance: ProvenanceSchema.optional().describe(
      'Where the question came from (drafted by a model, imported, hand-written) and who reviewed it; absent: hand-written',
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
    if (q.probeDocIds !== undefined && (q.type !== 'none' || q.userContext === undefined))
      ctx.addIssue({
        code: 'custom',
        path: ['probeDocIds'],
        message: 'a cross-tenant probe is a none question with a userContext: the asker must get a refusal',
      })
    if (q.relevance !== undefined)
      relevanceIssues(q.relevance, q.answerDocIds, q.governingDocId).forEach((issue) => ctx.addIssue(issue))
  })

/**
 * Grades and answerDocIds must agree: the documents graded 1 or more are exactly answerDocIds (so their readers
 * keep working); grade 0 marks a judged distractor, not listed in answerDocIds.
 */
function relevanceIssues(
  relevance: Relevance,
  answerDocIds: readonly string[],
  governingDocId: string | undefined,
): { code: 'custom'; path: (string | number)[]; message: string }[] {
  const issues: { code: 'custom'; path: (string | number)[]; message: string }[] = []
  const answers = new Set(answerDocIds)
  for (const [docId, grade] of Object.entries(relevance)) {
    if (docId === governingDocId && grade === 0)
      issues.push({
        code: 'custom',
        path: ['relevance', docId],
        message: `the governing document ${docId} is graded 0 (not relevant); grade it 1..${MAX_GRADE}`,
      })
    else if (grade >= 1 && !answers.has(docId))
      issues.push({
        code: 'custom',
        path: ['relevance', docId],
        message: `${docId} is graded ${grade} but answerDocIds does not list it: list it there, or grade it 0`,
      })
    else if (grade === 0 && answers.has(docId))
      issues.push({
        code: 'custom',
        path: ['relevance', docId],
        message: `${docId} is graded 0 (not relevant) but answerDocIds lists it: grade it 1..${MAX_GRADE}, or remove it from answerDocIds`,
      })
  }
  for (const docId of answerDocIds) {
    if (!Object.hasOwn(relevance, docId))
      issues.push({
        code: 'custom',
        path: ['relevance'],
        message: `answerDocIds lists ${docId} but relevance does not grade it: grade every answer document 1..${MAX_GRADE}`,
      })
  }
  return issues
}

export type GoldenQuestion = z.output<typeof GoldenQuestionSchema>

export const GoldenSetSchema = z
  .object({
    $schema: z.string().optional(),
    questions: z.array(GoldenQuestionSchema),
  })
  .strict()

/** The JSON Schema editors use to complete and check golden-set files (generated from the zod schema). */
export function goldenSetJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(GoldenSetSchema, { io: 'input', unrepresentable: 'any' })
}
