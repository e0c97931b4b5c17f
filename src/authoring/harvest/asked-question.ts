import { z } from 'zod'
import { HistorySchema, UserContextSchema, type HistoryTurn, type UserContext } from '../../contract/golden-set-schema.ts'

/** A question as production asked it, whatever file it came from: what the harvest reads, redacts and proposes. */
export interface AskedQuestion {
  question: string
  userContext?: UserContext | undefined
  history?: HistoryTurn[] | undefined
  /** What production answered (shown to the reviewer, never a gold answer). */
  answer?: string | undefined
  /** The documents production retrieved, when the file says. */
  retrievedIds?: string[] | undefined
  /** Why the harvest puts it first: a user's negative feedback, or the system failed. */
  flag: 'negative feedback' | 'system error' | null
  /** When it was asked, as the file says. */
  askedAt?: string | undefined
  file: string
  line: number
}

/** Feedback: "positive" | "negative", or a score 0..1 (LangSmith's scale) where below 0.5 is negative; a CSV's "0.2" too. */
export const FeedbackSchema = z.preprocess(
  (v) => (typeof v === 'string' && /^\s*\d*\.?\d+\s*$/.test(v) ? Number(v) : v),
  z
    .union([z.enum(['positive', 'negative']), z.number().min(0).max(1)])
    .nullable()
    .optional(),
)

/** A system error: its message, or true. */
export const ErrorFieldSchema = z.union([z.string(), z.boolean()]).nullable().optional()

export function flagOf(
  feedback: z.output<typeof FeedbackSchema>,
  error: z.output<typeof ErrorFieldSchema>,
): AskedQuestion['flag'] {
  if (error === true || (typeof error === 'string' && error.trim() !== '')) return 'system error'
  if (feedback === 'negative' || (typeof feedback === 'number' && feedback < 0.5)) return 'negative feedback'
  return null
}

/** One line of a JSON Lines log of production questions; other fields are the log's own and are left alone. */
export const LogRecordSchema = z.object({
  question: z.string({ error: 'expected the question asked, a string' }).trim().min(1, 'expected the question asked'),
  userContext: UserContextSchema.optional(),
  history: HistorySchema.optional(),
  answer: z.string().nullable().optional(),
  retrievedIds: z.array(z.string(), { error: 'expected a list of document ids' }).optional(),
  feedback: FeedbackSchema,
  error: ErrorFieldSchema,
  timestamp: z.string().optional(),
})
