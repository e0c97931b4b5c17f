import { z } from 'zod'

/**
 * How the built-in system ranks chunks (`retrieval`). Defaults: Lucene's BM25 (k1 1.2, b 0.75), the possessive
 * filter, the heading path as a title field of weight 1 (docs/comparing.md has why).
 */
export const RetrieverOptionsSchema = z
  .object({
    /** bm25: BM25 alone; hybrid: BM25 and character n-gram TF-IDF cosine, fused by reciprocal rank. */
    kind: z.enum(['bm25', 'hybrid']).default('bm25'),
    /** Multiply a chunk's score by the number of distinct query terms it matches (MiniSearch; Lucene does not). */
    coordination: z.boolean().default(false),
    /** BM25 term-frequency saturation. */
    k1: z.number().min(0).default(1.2),
    /** BM25 length normalisation: 0 none, 1 full. */
    b: z.number().min(0).max(1).default(0.75),
    /** BM25+ lower bound of a matching term's frequency part (Lv & Zhai 2011); 0 is plain BM25, as in Lucene. */
    delta: z.number().min(0).default(0),
    /** Drop a trailing 's / ’s before stemming ("Love's" -> "love"), as Lucene's EnglishPossessiveFilter. */
    possessives: z.boolean().default(true),
    /** Weight of the heading path (document title > section) as a BM25F field next to the text; 0: no title field. */
    titleWeight: z.number().min(0).default(1),
    /** Reciprocal rank fusion constant of the hybrid retriever: a result at rank r earns 1 / (rrfK + r). */
    rrfK: z.number().min(0).default(60),
    // A second stage over the first's top rerankTopN; absent means none, not defaulted, so a run without one records
    // the config it recorded before rerankers existed.
    /** none · proximity: query terms close together (proximity-reranker.ts) · claude: listwise, through the model client. */
    reranker: z.enum(['none', 'proximity', 'claude']).optional(),
    /** How many of the first stage's chunks the reranker reorders (20 when absent); the rest follow them unchanged. */
    rerankTopN: z.number().int().positive().optional(),
  })
  .strict()

export type RetrieverOptions = z.infer<typeof RetrieverOptionsSchema>

/** The chunks a reranker reorders when `rerankTopN` is not set. */
export const DEFAULT_RERANK_TOP_N = 20

/** Every option at its default. */
export const DEFAULT_RETRIEVER_OPTIONS: RetrieverOptions = RetrieverOptionsSchema.parse({})

/**
 * The scoring before these defaults, which `retriever: 'bm25'` (no `retrieval`) names: MiniSearch 7's BM25+
 * (k1 1.2, b 0.7, delta 0.5) with its coordination factor, no possessive filter, no title field.
 */
export const MINISEARCH_RETRIEVER_OPTIONS: RetrieverOptions = RetrieverOptionsSchema.parse({
  kind: 'bm25',
  coordination: true,
  k1: 1.2,
  b: 0.7,
  delta: 0.5,
  possessives: false,
  titleWeight: 0,
})

/** The options in a few words, for report headers: `bm25 (k1 1.2, b 0.75, title 1, possessives)`. */
export function describeRetrieval(options: RetrieverOptions): string {
  const parts = [`k1 ${options.k1}`, `b ${options.b}`]
  if (options.delta > 0) parts.push(`delta ${options.delta}`)
  if (options.coordination) parts.push('coordination')
  if (options.titleWeight > 0) parts.push(`title ${options.titleWeight}`)
  if (options.possessives) parts.push('possessives')
  if (options.kind === 'hybrid') parts.push(`+ char n-grams, RRF k ${options.rrfK}`)
  if (options.reranker !== undefined && options.reranker !== 'none')
    parts.push(`${options.reranker} rerank of the top ${options.rerankTopN ?? DEFAULT_RERANK_TOP_N}`)
  return `${options.kind} (${parts.join(', ')})`
}
