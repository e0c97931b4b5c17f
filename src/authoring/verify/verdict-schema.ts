import { z } from 'zod'

/** What `golden verify` decided of one candidate question. */
export const VERDICT_STATUSES = ['kept', 'rejected', 'undecided'] as const
export type VerdictStatus = (typeof VERDICT_STATUSES)[number]

/**
 * One reason of a verdict: the check that found it and what it found, with the evidence (the documents,
 * claims or questions involved). A kept question may carry reasons too: golden:check's warnings, which
 * never reject.
 */
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
 * A line of verified.jsonl: the candidate question object exactly as it was read (a golden-set question,
 * with its provenance when it has one) and its `verdict`. A candidate that breaks the golden-set schema
 * is written as it was read, rejected with the schema's messages, so that nothing is dropped.
 */
export const VerifiedLineSchema = z.looseObject({ verdict: VerdictSchema })
