import { z } from 'zod'

// In a module of its own: the question outcomes (read in every test worker) carry a history too, without the golden-set schema.

/** The roles of a conversation turn: the user's messages and the assistant's replies. */
export const HISTORY_ROLES = ['user', 'assistant'] as const

/** One turn of the conversation before a follow-up question. */
export const HistoryTurnSchema = z
  .object({
    role: z.enum(HISTORY_ROLES, {
      error: (issue) => `unknown role ${JSON.stringify(issue.input)}; expected user or assistant`,
    }),
    content: z.string({ error: 'expected the text of the turn' }).trim().min(1, 'expected the text of the turn'),
  })
  .strict()

export type HistoryTurn = z.output<typeof HistoryTurnSchema>

/** The turns before a follow-up question, oldest first; never empty (a question without turns has no history). */
export const HistorySchema = z
  .array(HistoryTurnSchema, {
    error: 'expected a list of turns such as [{"role": "user", "content": "..."}, {"role": "assistant", "content": "..."}]',
  })
  .min(1, 'an empty history: leave the field out for a question that follows no conversation')
