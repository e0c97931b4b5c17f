import { InputError } from '../contract/input-error.ts'
import { EvalKnobsSchema, EvalConfigSchema, type EvalConfig } from '../contract/eval-config-schema.ts'
import { RetrieverOptionsSchema, type RetrieverOptions } from '../contract/retriever-options.ts'

/** How a variable's text becomes its field's value. */
type OverrideKind = 'integer' | 'fraction' | 'boolean' | 'string'

/** Environment variable -> config field, for the knobs a run varies without editing the config (docs/knobs.md). */
const OVERRIDES = {
  EVAL_CONTEXT_BUDGET: ['budgetTokens', 'integer'],
  EVAL_TOP_K: ['k', 'integer'],
  EVAL_CHUNK_TOKENS: ['chunkTokens', 'integer'],
  EVAL_CHUNK_OVERLAP: ['chunkOverlap', 'integer'],
  EVAL_TOLERANCE: ['tolerance', 'fraction'],
  EVAL_CONCURRENCY: ['concurrency', 'integer'],
  EVAL_REFUSAL_THRESHOLD: ['refusalThreshold', 'fraction'],
  EVAL_TIMEOUT_MS: ['timeoutMs', 'integer'],
  EVAL_MAX_RETRIES: ['maxRetries', 'integer'],
  EVAL_MAX_JUDGE_ERROR_RATE: ['maxJudgeErrorRate', 'fraction'],
  EVAL_MAX_SYSTEM_ERROR_RATE: ['maxSystemErrorRate', 'fraction'],
  EVAL_MAX_ATTACK_SUCCESS_RATE: ['maxAttackSuccessRate', 'fraction'],
  EVAL_MAX_USD: ['maxUsd', 'fraction'],
  EVAL_BATCH_POLL_MS: ['batchPollMs', 'integer'],
  EVAL_ALPHA: ['alpha', 'fraction'],
  EVAL_REPEATS: ['repeats', 'integer'],
  EVAL_TRIALS: ['trials', 'integer'],
  EVAL_MAX_FLAKY_RATE: ['maxFlakyRate', 'fraction'],
  EVAL_RELEVANT_GRADE: ['relevantGrade', 'integer'],
  EVAL_MIN_JUDGE_AGREEMENT: ['minJudgeAgreement', 'fraction'],
  EVAL_BATCH: ['batch', 'boolean'],
  EVAL_MODE: ['mode', 'string'],
  EVAL_GENERATOR_MODEL: ['generatorModel', 'string'],
  EVAL_JUDGE_MODEL: ['judgeModel', 'string'],
  EVAL_DRAFTER_MODEL: ['drafterModel', 'string'],
  EVAL_CACHE: ['cache', 'string'],
  EVAL_RECORDING: ['recording', 'string'],
  EVAL_GATE_POLICY: ['gatePolicy', 'string'],
  EVAL_JUDGE_CORRECTION: ['judgeCorrection', 'string'],
  EVAL_RETRIEVER: ['retrieval.kind', 'string'],
  EVAL_BM25_COORDINATION: ['retrieval.coordination', 'boolean'],
  EVAL_BM25_K1: ['retrieval.k1', 'fraction'],
  EVAL_BM25_B: ['retrieval.b', 'fraction'],
  EVAL_BM25_DELTA: ['retrieval.delta', 'fraction'],
  EVAL_POSSESSIVES: ['retrieval.possessives', 'boolean'],
  EVAL_TITLE_WEIGHT: ['retrieval.titleWeight', 'fraction'],
  EVAL_RRF_K: ['retrieval.rrfK', 'fraction'],
  EVAL_RERANKER: ['retrieval.reranker', 'string'],
  EVAL_RERANK_TOP_N: ['retrieval.rerankTopN', 'integer'],
} as const satisfies Record<string, readonly [keyof EvalConfig | `retrieval.${keyof RetrieverOptions}`, OverrideKind]>

/** Each environment variable and the config field it overrides. */
export const KNOB_VARIABLES: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(OVERRIDES).map(([name, [field]]) => [name, field]),
)

/** A numeric variable's value: decimal notation only (Number() would also read 0x10, 1e9 or ' 12 ', which no one means in a knob). */
function decimalOverride(name: string, raw: string, fractional: boolean): number {
  if (!(fractional ? /^-?\d+(\.\d+)?$/ : /^-?\d+$/).test(raw)) {
    throw new InputError(
      `${name}=${JSON.stringify(raw)}: expected ${fractional ? 'a decimal number such as 0.5' : 'a decimal integer such as 600'}`,
    )
  }
  return Number(raw)
}

/** A yes/no variable's value: 1/true or 0/false. */
function booleanOverride(name: string, raw: string): boolean {
  if (!/^(1|0|true|false)$/i.test(raw)) throw new InputError(`${name}=${JSON.stringify(raw)}: expected 1 or 0 (true or false)`)
  return /^(1|true)$/i.test(raw)
}

/** File defaults, then environment overrides, validated as a whole; a bad value names its source and what is expected. */
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
  for (const [name, [field, kind]] of Object.entries(OVERRIDES)) {
    const raw = env[name]
    if (raw === undefined || raw === '') continue
    const value: unknown =
      kind === 'boolean' ? booleanOverride(name, raw) : kind === 'string' ? raw : decimalOverride(name, raw, kind === 'fraction')
    const [outer, option] = field.split('.') as [string, string | undefined]
    if (option === undefined) merged[outer] = value
    else {
      // Over the file's retrieval options (a value that is not an object is left for the schema to name).
      const fileRetrieval = merged.retrieval ?? {}
      if (typeof fileRetrieval !== 'object' || fileRetrieval === null || Array.isArray(fileRetrieval)) continue
      merged.retrieval = { ...fileRetrieval, [option]: value }
    }
    origin[field] = name
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
      throw new InputError(
        `${where('retrieval')}: unknown option(s) ${issue.keys.join(', ')}; ` +
          `expected only ${Object.keys(RetrieverOptionsSchema.shape).join(', ')}`,
      )
    }
    if (issue.code === 'unrecognized_keys') {
      throw new InputError(
        `${source}: unknown config field(s) ${issue.keys.join(', ')}; expected only ${Object.keys(EvalKnobsSchema.shape).join(', ')}`,
      )
    }
    const field = String(issue.path[0] ?? '')
    // A retrieval option names its own variable or field (retrieval.k1), and shows its own value.
    const nested = issue.path.length === 2 ? `${field}.${String(issue.path[1])}` : null
    const got = nested === null ? merged[field] : (merged[field] as Record<string, unknown>)[String(issue.path[1])]
    throw new InputError(
      `${(nested === null ? undefined : origin[nested]) ?? origin[field] ?? where(nested ?? field)}: ` +
        `${issue.message} (got ${JSON.stringify(got)})`,
    )
  }
  return parsed.data
}
