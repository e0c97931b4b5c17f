import { z } from 'zod'

// Apart from the golden-set schema so a question's outcome carries it without building that schema.
/**
 * Where a question came from: by hand, imported, drafted by a model (`rag-eval golden draft`) or harvested from
 * production (`rag-eval golden harvest`), and who reviewed it; absent means hand-written.
 */
export const ProvenanceSchema = z
  .object({
    origin: z
      .enum(['drafted', 'hand-written', 'imported', 'harvested'])
      .describe('drafted | hand-written | imported | harvested'),
    model: z.string().min(1).optional().describe('drafted: the model that drafted it'),
    promptHash: z.string().min(1).optional().describe("drafted: the hash of the drafter's prompt template"),
    draftedAt: z.string().min(1).optional().describe('drafted: when (ISO 8601)'),
    source: z.string().min(1).optional().describe('harvested: the production file it was read from'),
    line: z.number().int().min(1).optional().describe('harvested: the line of that file'),
    askedAt: z.string().min(1).optional().describe('harvested: when it was asked in production, as the file says'),
    harvestedAt: z.string().min(1).optional().describe('harvested: when (ISO 8601)'),
    reviewedBy: z.string().min(1).optional().describe('who accepted it in golden review'),
    reviewedAt: z.string().min(1).optional().describe('when it was accepted (ISO 8601)'),
    unreviewed: z.boolean().optional().describe('true: accepted by a script (--accept-kept) without a person reading it'),
  })
  .strict()

export type Provenance = z.output<typeof ProvenanceSchema>
