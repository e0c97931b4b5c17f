import { z } from 'zod'

/**
 * How the built-in system ranks chunks. The defaults reproduce the retriever the committed baseline was
 * made with (MiniSearch's BM25+ with its coordination factor); docs/statistics.md and the bench compare
 * the alternatives.
 */
export const RetrieverOptionsSchema = z
  .object({
    /** bm25: BM25 alone; hybrid: BM25 and character n-gram TF-IDF cosine, fused by reciprocal rank. */
    kind: z.enum(['bm25', 'hybrid']).default('bm25'),
    /** Multiply a chunk's score by the number of distinct query terms it matches (MiniSearch; Lucene does not). */
    coordination: z.boolean().default(true),
    /** BM25 term-frequency saturation. */
    k1: z.number().min(0).default(1.2),
    /** BM25 length normalisation: 0 none, 1 full. */
    b: z.number().min(0).max(1).default(0.7),
    /** BM25+ lower bound of a matching term's frequency part (Lv & Zhai 2011); 0 is plain BM25, as in Lucene. */
    delta: z.number().min(0).default(0.5),
    /** Drop a trailing 's / ’s before stemming ("Love's" -> "love"), as Lucene's EnglishPossessiveFilter. */
    possessives: z.boolean().default(false),
    /** Weight of the heading path (document title > section) as a BM25F field next to the text; 0: no title field. */
    titleWeight: z.number().min(0).default(0),
    /** Reciprocal rank fusion constant of the hybrid retriever: a result at rank r earns 1 / (rrfK + r). */
    rrfK: z.number().min(0).default(60),
  })
  .strict()

export type RetrieverOptions = z.infer<typeof RetrieverOptionsSchema>

/** Every option at its default (today's BM25 retriever). */
export const DEFAULT_RETRIEVER_OPTIONS: RetrieverOptions = RetrieverOptionsSchema.parse({})
