import { z } from 'zod'

// Apart from the golden-set schema so a question's outcome carries it without building that schema.
/**
 * Where a question came from: by hand, imported, or drafted by a model (`rag-eval golden draft`) and who
 * reviewed it; absent means hand-written.
 */
export const ProvenanceSchema = z
  .object({
    origin: z.enum(['drafted', 'hand-written', 'imported']).describe('drafted | hand-written | imported'),
    model: z.string().min(1).optional().describe('drafted: the model that drafted it'),
    promptHash: z.string().min(1).optional().describe("drafted: the hash of the drafter's prompt template"),
    draftedAt: z.string().min(1).optional().describe('drafted: when (ISO 8601)'),
    reviewedBy: z.string().min(1).optional().describe('who accepted it in golden review'),
    reviewedAt: z.string().min(1).optional().describe('when it was accepted (ISO 8601)'),
    unreviewed: z.boolean().optional().describe('true: accepted by a script (--accept-kept) without a person reading it'),
  })
  .strict()

export type Provenance = z.output<typeof ProvenanceSchema>
