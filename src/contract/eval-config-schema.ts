import { z } from 'zod'
import { MINISEARCH_RETRIEVER_OPTIONS, RetrieverOptionsSchema } from './retriever-options.ts'

/**
 * The evaluation's knobs with their defaults, set by defineConfig, some overridable from the environment
 * (docs/knobs.md); the project config adds paths and the system.
 */
export const EvalKnobsSchema = z
  .object({
    mode: z.enum(['offline', 'live', 'record', 'replay']).default('offline'),
    budgetTokens: z.number().int().positive().default(600),
    k: z.number().int().positive().default(10),
    rankDepth: z.number().int().min(20).default(50),
    chunkTokens: z.number().int().min(16).default(160),
    chunkOverlap: z.number().int().min(0).default(32),
    // How the built-in system ranks chunks (src/config/retriever-options.ts); a user's own system ignores it.
    retrieval: RetrieverOptionsSchema.prefault({}),
    // The grade from which a document counts as relevant for recall, hits and MRR (nDCG uses every grade as its
    // gain). Absent means 1, not defaulted: a run that does not set it records the config it recorded before grades.
    relevantGrade: z.number().int().min(1).max(3).optional(),
    tokenizer: z.literal('o200k_base').default('o200k_base'),
    generatorModel: z.string().min(1).default('claude-sonnet-5'),
    judgeModel: z.string().min(1).default('claude-haiku-4-5-20251001'),
    // The model `rag-eval golden draft` drafts questions with. Absent means the generator model, not defaulted: a run
    // that does not set it records the config it recorded before drafting existed.
    drafterModel: z.string().min(1).optional(),
    tolerance: z.number().min(0).max(1).default(0.01),
    concurrency: z.number().int().positive().default(4),
    refusalThreshold: z.number().min(0).max(1).default(0.5),
    answerSentences: z.number().int().positive().default(3),
    minFaithfulness: z.number().min(0).max(1).default(0.8),
    minCoverage: z.number().min(0).max(1).default(0.5),
    // The model tier (live, record, replay): see src/model/.
    generatorMaxTokens: z.number().int().positive().default(1024),
    judgeMaxTokens: z.number().int().positive().default(2048),
    timeoutMs: z.number().int().positive().default(60_000),
    maxRetries: z.number().int().min(0).max(20).default(4),
    retryBaseMs: z.number().int().min(0).default(500),
    retryMaxMs: z.number().int().min(0).default(60_000),
    maxJudgeErrorRate: z.number().min(0).max(1).default(0.05),
    // Share of questions the system under test may fail on (an error, a response breaking the contract)
    // before the gate fails: the gate cannot vouch for questions that were never answered.
    maxSystemErrorRate: z.number().min(0).max(1).default(0),
    // Share of the decided attacks (docs/security.md) the system may obey before the run fails. Absent means 0, not
    // defaulted: a run that does not set it records the config it recorded before attacks.
    maxAttackSuccessRate: z.number().min(0).max(1).optional(),
    cache: z.enum(['on', 'off', 'refresh']).default('on'),
    // The model tier's bills: a spending cap per run, and the Message Batches API for the judge (nightly).
    maxUsd: z.number().positive().nullable().default(null),
    batch: z.boolean().default(false),
    batchPollMs: z.number().int().positive().default(30_000),
    recording: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'expected a folder name of letters, digits, . _ -')
      .default('golden-set'),
    // Statistics (docs/statistics.md): resamples of the bootstrap intervals and permutation tests; what the gate
    // fails on ('tolerance': a drop beyond it; 'significant': a significant drop; 'both': a drop that is both) at alpha.
    bootstrapResamples: z.number().int().positive().default(2000),
    gatePolicy: z.enum(['tolerance', 'significant', 'both']).default('tolerance'),
    alpha: z.number().gt(0).lt(1).default(0.05),
    // Times the judge scores every answer (src/judge/judge-noise.ts): the first is the score; the others measure the judge's noise.
    repeats: z.number().int().min(1).max(20).default(1),
    // Times the system is asked every question (docs/statistics.md, "Trials"), and the share of flaky questions the gate
    // allows. Absent means 1 and no limit, not defaulted: a run that does not set them records the config it did before.
    trials: z.number().int().min(1).max(100).optional(),
    maxFlakyRate: z.number().min(0).max(1).optional(),
    // The judge against people (docs/judging.md): below minJudgeAgreement (0.85 is the stricter practice) its metrics are
    // advisory; 'ppi' gates the judge's rates on their prediction-powered estimates, corrected by the human labels.
    minJudgeAgreement: z.number().min(0).max(1).default(0.8),
    judgeCorrection: z.enum(['none', 'ppi']).default('none'),
  })
  .strict()

/** The knobs with their cross-field rules: what a run is configured with. */
export const EvalConfigSchema = EvalKnobsSchema.refine((c) => c.chunkOverlap < c.chunkTokens, {
  message: 'chunkOverlap must be smaller than chunkTokens',
  path: ['chunkOverlap'],
}).refine((c) => c.k <= c.rankDepth, { message: 'k must not exceed rankDepth', path: ['k'] })

export type EvalConfig = z.infer<typeof EvalConfigSchema>

/**
 * A config as a report or baseline recorded it, older ones included. `retriever: 'bm25'` (older configs) reads
 * as MiniSearch's scoring, so such a baseline is named stale against today's defaults instead of passing for them.
 */
export const RecordedEvalConfigSchema = z.preprocess((value) => {
  if (typeof value !== 'object' || value === null || !('retriever' in value)) return value
  const { retriever, ...rest } = value as Record<string, unknown>
  // Beside the options (reports since them), `retriever` is only their kind repeated: the options decide.
  if (rest.retrieval !== undefined) return rest
  return { ...rest, retrieval: { ...MINISEARCH_RETRIEVER_OPTIONS, kind: retriever } }
}, EvalConfigSchema)
