import { z } from 'zod'

/** The two roles a model plays in a run. */
export const MODEL_ROLES = ['generator', 'judge'] as const
export type ModelRole = (typeof MODEL_ROLES)[number]

const tokens = z.number().int().min(0)
/** Billed tokens of one call or many: input, output, prompt-cache reads and writes. */
const TOKENS = { inputTokens: tokens, outputTokens: tokens, cacheReadTokens: tokens, cacheWriteTokens: tokens }

/** Usage of one role (generator or judge) in a run. */
export const RoleUsageSchema = z.object({
  /** Requests the API answered in this run (billed). */
  calls: z.number().int().min(0),
  /** Responses served from the disk cache or, in replay, the recording: no cost, no latency. */
  cacheHits: z.number().int().min(0),
  /** Extra attempts after 429, 529, 5xx, timeouts and dropped connections. */
  retries: z.number().int().min(0),
  ...TOKENS,
  usd: z.number().min(0),
  /** Of the calls, those answered through the Message Batches API (EVAL_BATCH=1), at the table's batchFactor. */
  batchCalls: z.number().int().min(0).default(0),
  /** What prompt caching saved: cache reads below the input price, less the write premium (negative if never read). */
  promptCacheSavedUsd: z.number().default(0),
  /** What the batch discount saved on these calls. */
  batchSavedUsd: z.number().min(0).default(0),
})
export type RoleUsage = z.infer<typeof RoleUsageSchema>

/** What the cache hits would have cost had they been API calls (their recorded usage at today's prices). */
export const SavedUsageSchema = z.object({
  ...TOKENS,
  usd: z.number().min(0),
})
export type SavedUsage = z.infer<typeof SavedUsageSchema>

export const ZERO_ROLE_USAGE: RoleUsage = Object.freeze({
  calls: 0,
  cacheHits: 0,
  retries: 0,
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  usd: 0,
  batchCalls: 0,
  promptCacheSavedUsd: 0,
  batchSavedUsd: 0,
})
/** One model call in the report's run.calls: what it was, where its response came from, its tokens, cost and latency. */
export const CallLogSchema = z.object({
  subject: z.string(),
  purpose: z.string(),
  role: z.enum(MODEL_ROLES),
  model: z.string(),
  source: z.enum(['api', 'cache', 'recording']),
  ...TOKENS,
  /** USD charged (0 for cache hits and replays). */
  usd: z.number().min(0),
  /** Wall time from first attempt to response, retries included; null for cache hits, replays and batch items. */
  latencyMs: z.number().nullable(),
  retries: z.number().int().min(0),
  /** Answered through the Message Batches API, at the batch price. */
  batch: z.boolean().default(false),
})
export type CallLog = z.infer<typeof CallLogSchema>

/** What one role (generator or judge) is expected to cost in the run about to start. */
export const RoleEstimateSchema = z.object({
  model: z.string(),
  /** Requests the run will send (not in the cache). */
  calls: z.number().int().min(0),
  /** Calls the response cache will answer, free. */
  cached: z.number().int().min(0),
  /** Expected billed tokens of the requests to send: input includes the tool-use system prompt the API adds. */
  ...TOKENS,
  /** Expected USD. */
  usd: z.number().min(0),
  /** The ceiling: every reply at max_tokens, the input counted with a margin (what EVAL_MAX_USD is checked against). */
  worstCaseUsd: z.number().min(0),
  /** Priced at the Message Batches discount (EVAL_BATCH=1). */
  batch: z.boolean(),
})
export type RoleEstimate = z.infer<typeof RoleEstimateSchema>

/** The report's run.estimate: made before any call, from the prompts the run will send. */
export const RunEstimateSchema = z.object({
  /** How the figures were obtained. */
  basis: z.string(),
  byRole: z.object({ generator: RoleEstimateSchema, judge: RoleEstimateSchema }),
  usd: z.number().min(0),
  worstCaseUsd: z.number().min(0),
  /** EVAL_MAX_USD of the run. */
  maxUsd: z.number().nullable(),
  /** What a reader should know: prompt caching that will not engage, a cap the run will reach. */
  notes: z.array(z.string()),
})
export type RunEstimate = z.infer<typeof RunEstimateSchema>
