import { z } from 'zod'
import { InputError } from '../load/input-error.ts'
import { MINISEARCH_RETRIEVER_OPTIONS, RetrieverOptionsSchema, type RetrieverOptions } from './retriever-options.ts'

/**
 * The evaluation's knobs, each with its default. rag-eval.config.ts sets them (defineConfig); each has an
 * environment override. The shape is shared with the project config, which adds paths and the system.
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
    tokenizer: z.literal('o200k_base').default('o200k_base'),
    generatorModel: z.string().min(1).default('claude-sonnet-5'),
    judgeModel: z.string().min(1).default('claude-haiku-4-5-20251001'),
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
    cache: z.enum(['on', 'off', 'refresh']).default('on'),
    // The model tier's bills: a spending cap per run, and the Message Batches API for the judge (nightly).
    maxUsd: z.number().positive().nullable().default(null),
    batch: z.boolean().default(false),
    batchPollMs: z.number().int().positive().default(30_000),
    recording: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'expected a folder name of letters, digits, . _ -').default('golden-set'),
    // Statistics (docs/statistics.md): resamples of the bootstrap intervals and permutation tests; what the gate
    // fails on ('tolerance': a drop beyond it; 'significant': a significant drop; 'both': a drop that is both) at alpha.
    bootstrapResamples: z.number().int().positive().default(2000),
    gatePolicy: z.enum(['tolerance', 'significant', 'both']).default('tolerance'),
    alpha: z.number().gt(0).lt(1).default(0.05),
    // Times the judge scores every answer (src/judge/judge-noise.ts): the first is the score; the others measure the judge's noise.
    repeats: z.number().int().min(1).max(20).default(1),
  })
  .strict()

/** The knobs with their cross-field rules: what a run is configured with. */
export const EvalConfigSchema = EvalKnobsSchema
  .refine((c) => c.chunkOverlap < c.chunkTokens, {
    message: 'chunkOverlap must be smaller than chunkTokens',
    path: ['chunkOverlap'],
  })
  .refine((c) => c.k <= c.rankDepth, { message: 'k must not exceed rankDepth', path: ['k'] })

export type EvalConfig = z.infer<typeof EvalConfigSchema>

/**
 * A config as a report or baseline recorded it, older ones included. Before the retrieval options a
 * config held `retriever: 'bm25'`, which was MiniSearch's scoring: it reads as that scoring, so a baseline
 * measured with it is named stale against today's defaults instead of passing for them.
 */
export const RecordedEvalConfigSchema = z.preprocess((value) => {
  if (typeof value !== 'object' || value === null || !('retriever' in value)) return value
  const { retriever, ...rest } = value as Record<string, unknown>
  // Beside the options (reports since them), `retriever` is only their kind repeated: the options decide.
  if (rest.retrieval !== undefined) return rest
  return { ...rest, retrieval: { ...MINISEARCH_RETRIEVER_OPTIONS, kind: retriever } }
}, EvalConfigSchema)

/** The knobs whose value is a number (or null: maxUsd), read from the schema rather than listed by hand. */
type NumericKnob = { [K in keyof EvalConfig]: EvalConfig[K] extends number | null ? K : never }[keyof EvalConfig]

/** Environment variable -> config field. Documented in the README's knobs table. */
const NUMERIC_OVERRIDES: Record<string, NumericKnob> = {
  EVAL_CONTEXT_BUDGET: 'budgetTokens',
  EVAL_TOP_K: 'k',
  EVAL_RANK_DEPTH: 'rankDepth',
  EVAL_CHUNK_TOKENS: 'chunkTokens',
  EVAL_CHUNK_OVERLAP: 'chunkOverlap',
  EVAL_TOLERANCE: 'tolerance',
  EVAL_CONCURRENCY: 'concurrency',
  EVAL_REFUSAL_THRESHOLD: 'refusalThreshold',
  EVAL_ANSWER_SENTENCES: 'answerSentences',
  EVAL_MIN_FAITHFULNESS: 'minFaithfulness',
  EVAL_MIN_COVERAGE: 'minCoverage',
  EVAL_GENERATOR_MAX_TOKENS: 'generatorMaxTokens',
  EVAL_JUDGE_MAX_TOKENS: 'judgeMaxTokens',
  EVAL_TIMEOUT_MS: 'timeoutMs',
  EVAL_MAX_RETRIES: 'maxRetries',
  EVAL_RETRY_BASE_MS: 'retryBaseMs',
  EVAL_RETRY_MAX_MS: 'retryMaxMs',
  EVAL_MAX_JUDGE_ERROR_RATE: 'maxJudgeErrorRate',
  EVAL_MAX_SYSTEM_ERROR_RATE: 'maxSystemErrorRate',
  EVAL_MAX_USD: 'maxUsd',
  EVAL_BATCH_POLL_MS: 'batchPollMs',
  EVAL_BOOTSTRAP: 'bootstrapResamples',
  EVAL_ALPHA: 'alpha',
  EVAL_REPEATS: 'repeats',
}
/** Knobs that take fractions; every other numeric knob is a whole number. */
const FRACTIONAL_KNOBS: ReadonlySet<NumericKnob> = new Set(['tolerance', 'refusalThreshold', 'minFaithfulness', 'minCoverage', 'maxJudgeErrorRate', 'maxSystemErrorRate', 'maxUsd', 'alpha'])

/** Yes/no knobs: 1/true or 0/false. */
const BOOLEAN_OVERRIDES = {
  EVAL_BATCH: 'batch',
} as const
const STRING_OVERRIDES = {
  EVAL_MODE: 'mode',
  EVAL_GENERATOR_MODEL: 'generatorModel',
  EVAL_JUDGE_MODEL: 'judgeModel',
  EVAL_CACHE: 'cache',
  EVAL_RECORDING: 'recording',
  EVAL_GATE_POLICY: 'gatePolicy',
} as const

/**
 * The built-in retriever's options from the environment (retrieval.<field>): its kind, the BM25
 * parameters and the fusion constant, so a comparison can vary them without editing the config.
 */
const RETRIEVAL_OVERRIDES = {
  EVAL_RETRIEVER: { field: 'kind', value: 'string' },
  EVAL_BM25_COORDINATION: { field: 'coordination', value: 'boolean' },
  EVAL_BM25_K1: { field: 'k1', value: 'number' },
  EVAL_BM25_B: { field: 'b', value: 'number' },
  EVAL_BM25_DELTA: { field: 'delta', value: 'number' },
  EVAL_POSSESSIVES: { field: 'possessives', value: 'boolean' },
  EVAL_TITLE_WEIGHT: { field: 'titleWeight', value: 'number' },
  EVAL_RRF_K: { field: 'rrfK', value: 'number' },
} as const satisfies Record<string, { field: keyof RetrieverOptions; value: 'string' | 'boolean' | 'number' }>

/** A numeric variable's value: decimal notation only (Number() would also read 0x10, 1e9 or ' 12 ', which no one means in a knob). */
function decimalOverride(name: string, raw: string, fractional: boolean): number {
  if (!(fractional ? /^-?\d+(\.\d+)?$/ : /^-?\d+$/).test(raw)) {
    throw new InputError(`${name}=${JSON.stringify(raw)}: expected ${fractional ? 'a decimal number such as 0.5' : 'a decimal integer such as 600'}`)
  }
  return Number(raw)
}

/** A yes/no variable's value: 1/true or 0/false. */
function booleanOverride(name: string, raw: string): boolean {
  if (!/^(1|0|true|false)$/i.test(raw)) throw new InputError(`${name}=${JSON.stringify(raw)}: expected 1 or 0 (true or false)`)
  return /^(1|true)$/i.test(raw)
}

/**
 * Resolves the config: file defaults, then environment overrides, validated as a whole.
 * A bad value names its source (the variable or the file field) and what is expected.
 */
export function resolveEvalConfig(
  fileValues: unknown,
  env: NodeJS.ProcessEnv,
  source: string,
  /** Names a config field in messages, e.g. `rag-eval.config.ts:7:3 field "k"`. */
  where: (field: string) => string = (field) => `${source} field "${field}"`,
): EvalConfig {
  if (typeof fileValues !== 'object' || fileValues === null || Array.isArray(fileValues)) {
    throw new InputError(`${source}: expected an object of config values`)
  }
  const merged: Record<string, unknown> = { ...fileValues }
  const origin: Record<string, string> = {}
  for (const [name, field] of Object.entries(NUMERIC_OVERRIDES)) {
    const raw = env[name]
    if (raw === undefined || raw === '') continue
    merged[field] = decimalOverride(name, raw, FRACTIONAL_KNOBS.has(field))
    origin[field] = name
  }
  for (const [name, field] of Object.entries(BOOLEAN_OVERRIDES)) {
    const raw = env[name]
    if (raw === undefined || raw === '') continue
    merged[field] = booleanOverride(name, raw)
    origin[field] = name
  }
  for (const [name, field] of Object.entries(STRING_OVERRIDES)) {
    const raw = env[name]
    if (raw === undefined || raw === '') continue
    merged[field] = raw
    origin[field] = name
  }
  for (const [name, { field, value }] of Object.entries(RETRIEVAL_OVERRIDES)) {
    const raw = env[name]
    if (raw === undefined || raw === '') continue
    // Over the file's retrieval options (a value that is not an object is left for the schema to name).
    const fileRetrieval = merged.retrieval ?? {}
    if (typeof fileRetrieval !== 'object' || fileRetrieval === null || Array.isArray(fileRetrieval)) continue
    merged.retrieval = { ...fileRetrieval, [field]: value === 'boolean' ? booleanOverride(name, raw) : value === 'number' ? decimalOverride(name, raw, true) : raw }
    origin[`retrieval.${field}`] = name
  }
  // MOCK=1 means no network: a live run answers from its recording instead (replay), a record run cannot run.
  if (env.MOCK === '1' && merged.mode === 'record') {
    throw new InputError('MOCK=1 forbids network calls but EVAL_MODE is record: unset one of them')
  }
  if (env.MOCK === '1' && merged.mode === 'live') {
    merged.mode = 'replay'
    origin.mode = 'MOCK=1 (live becomes replay)'
  }
  const parsed = EvalConfigSchema.safeParse(merged)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    if (issue.code === 'unrecognized_keys' && issue.path[0] === 'retrieval') {
      throw new InputError(`${where('retrieval')}: unknown option(s) ${issue.keys.join(', ')}; expected only ${Object.keys(RetrieverOptionsSchema.shape).join(', ')}`)
    }
    if (issue.code === 'unrecognized_keys') {
      throw new InputError(`${source}: unknown config field(s) ${issue.keys.join(', ')}; expected only ${Object.keys(EvalKnobsSchema.shape).join(', ')}`)
    }
    const field = String(issue.path[0] ?? '')
    // A retrieval option names its own variable or field (retrieval.k1), and shows its own value.
    const nested = issue.path.length === 2 ? `${field}.${String(issue.path[1])}` : null
    const got = nested === null ? merged[field] : (merged[field] as Record<string, unknown>)[String(issue.path[1])]
    throw new InputError(`${(nested === null ? undefined : origin[nested]) ?? origin[field] ?? where(nested ?? field)}: ${issue.message} (got ${JSON.stringify(got)})`)
  }
  return parsed.data
}
