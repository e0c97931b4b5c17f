import { InputError } from '../contract/input-error.ts'
import { EvalKnobsSchema, EvalConfigSchema, type EvalConfig } from '../contract/eval-config-schema.ts'
import { RetrieverOptionsSchema, type RetrieverOptions } from '../contract/retriever-options.ts'

/** The knobs whose value is a number (or null: maxUsd; or absent: relevantGrade), read from the schema rather than listed by hand. */
type NumericKnob = {
  [K in keyof EvalConfig]-?: Exclude<EvalConfig[K], undefined> extends number | null ? K : never
}[keyof EvalConfig]

/**
 * Environment variable -> config field, for the knobs a run varies without editing the config (docs/knobs.md);
 * the other fields are set in the config only.
 */
const NUMERIC_OVERRIDES: Record<string, NumericKnob> = {
  EVAL_CONTEXT_BUDGET: 'budgetTokens',
  EVAL_TOP_K: 'k',
  EVAL_CHUNK_TOKENS: 'chunkTokens',
  EVAL_CHUNK_OVERLAP: 'chunkOverlap',
  EVAL_TOLERANCE: 'tolerance',
  EVAL_CONCURRENCY: 'concurrency',
  EVAL_REFUSAL_THRESHOLD: 'refusalThreshold',
  EVAL_TIMEOUT_MS: 'timeoutMs',
  EVAL_MAX_RETRIES: 'maxRetries',
  EVAL_MAX_JUDGE_ERROR_RATE: 'maxJudgeErrorRate',
  EVAL_MAX_SYSTEM_ERROR_RATE: 'maxSystemErrorRate',
  EVAL_MAX_USD: 'maxUsd',
  EVAL_BATCH_POLL_MS: 'batchPollMs',
  EVAL_ALPHA: 'alpha',
  EVAL_REPEATS: 'repeats',
  EVAL_RELEVANT_GRADE: 'relevantGrade',
  EVAL_MIN_JUDGE_AGREEMENT: 'minJudgeAgreement',
}
/** Knobs that take fractions; every other numeric knob is a whole number. */
const FRACTIONAL_KNOBS: ReadonlySet<NumericKnob> = new Set([
  'tolerance',
  'refusalThreshold',
  'maxJudgeErrorRate',
  'maxSystemErrorRate',
  'maxUsd',
  'alpha',
  'minJudgeAgreement',
])

/** Yes/no knobs: 1/true or 0/false. */
const BOOLEAN_OVERRIDES = {
  EVAL_BATCH: 'batch',
} as const
const STRING_OVERRIDES = {
  EVAL_MODE: 'mode',
  EVAL_GENERATOR_MODEL: 'generatorModel',
  EVAL_JUDGE_MODEL: 'judgeModel',
  EVAL_DRAFTER_MODEL: 'drafterModel',
  EVAL_CACHE: 'cache',
  EVAL_RECORDING: 'recording',
  EVAL_GATE_POLICY: 'gatePolicy',
  EVAL_JUDGE_CORRECTION: 'judgeCorrection',
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

/** Each environment variable and the config field it overrides. */
export const KNOB_VARIABLES: Readonly<Record<string, string>> = {
  ...NUMERIC_OVERRIDES,
  ...BOOLEAN_OVERRIDES,
  ...STRING_OVERRIDES,
  ...Object.fromEntries(Object.entries(RETRIEVAL_OVERRIDES).map(([name, { field }]) => [name, `retrieval.${field}`])),
}

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
    merged.retrieval = {
      ...fileRetrieval,
      [field]: value === 'boolean' ? booleanOverride(name, raw) : value === 'number' ? decimalOverride(name, raw, true) : raw,
    }
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
