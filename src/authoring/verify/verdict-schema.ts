import { z } from 'zod'

/** What `golden verify` decided of one candidate question. */
export const VERDICT_STATUSES = ['kept', 'rejected', 'undecided'] as const
export type VerdictStatus = (typeof VERDICT_STATUSES)[number]

/** One reason of a verdict, with its evidence; a kept question may carry golden:check's warnings, which never reject. */
export const VerdictReasonSchema = z
  .object({
    check: z.string().min(1).describe('The check, e.g. unsupported-claim, leaked-answer, golden-check:unsupported-fact'),
    message: z.string().min(1).describe('What the check found, with its evidence'),
  })
  .strict()

export const VerdictSchema = z
  .object({
    status: z.enum(VERDICT_STATUSES).describe('kept | rejected | undecided'),
    reasons: z.array(VerdictReasonSchema),
  })
  .strict()

export type Verdict = z.output<typeof VerdictSchema>

/**
 * A line of verified.jsonl: the candidate exactly as read, and its verdict. A candidate breaking the schema is written
 * as read, rejected with the schema's messages, so nothing is dropped.
 */
export const VerifiedLineSchema = z.looseObject({ verdict: VerdictSchema })
