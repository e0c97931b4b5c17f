import { z } from 'zod'
import { MODEL_ROLES, type ModelCall, type ModelResult, type ModelRole } from './model-types.ts'
import { cacheMinTokens, costUsd, priceOf, type PriceTable } from './prices.ts'
import { cacheablePrefixTokens, TOOL_USE_SYSTEM_TOKENS, worstCaseUsd } from './request-cost.ts'
import { roundUsd } from './usage-ledger.ts'

const tokens = z.number().int().min(0)

/** What one role (generator or judge) is expected to cost in the run about to start. */
export const RoleEstimateSchema = z.object({
  model: z.string(),
  /** Requests the run will send (not in the cache). */
  calls: z.number().int().min(0),
  /** Calls the response cache will answer, free. */
  cached: z.number().int().min(0),
  /** Expected billed tokens of the requests to send: input includes the tool-use system prompt the API adds. */
  inputTokens: tokens,
  outputTokens: tokens,
  cacheReadTokens: tokens,
  cacheWriteTokens: tokens,
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

export interface ObservedCall {
  call: ModelCall
  result: ModelResult
}

export interface EstimateOptions {
  models: Record<ModelRole, string>
  batchRoles: ReadonlySet<ModelRole>
  maxUsd: number | null
}

const integer = (n: number) => n.toLocaleString('en-US')

/**
 * Prices the calls of a dry run (the run's own pipeline against a stand-in that answers instantly; see
 * model-tier.ts). A call the cache answered costs nothing; every other one is priced from its request as
 * it will be sent: its input tokens (plus the tool-use system prompt the API adds), prompt caching as the
 * API applies it (nothing below the model's minimum prefix), the stand-in's reply length as the expected
 * output, and the worst case with the reply at max_tokens.
 */
export function summariseEstimate(observed: readonly ObservedCall[], prices: PriceTable, options: EstimateOptions, basis: string): RunEstimate {
  const notes: string[] = []
  const byRole = Object.fromEntries(
    MODEL_ROLES.map((role): [ModelRole, RoleEstimate] => {
      const model = options.models[role]
      const price = priceOf(prices, model)
      const batch = options.batchRoles.has(role)
      const factor = batch ? prices.batchFactor : 1
      const estimate: RoleEstimate = { model, calls: 0, cached: 0, inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0, usd: 0, worstCaseUsd: 0, batch }
      let largestPrefix = 0
      for (const { call, result } of observed) {
        if (call.role !== role) continue
        if (result.source !== 'api') {
          estimate.cached += 1
          continue
        }
        const usage = { ...result.response.usage }
        if (Array.isArray(call.request.tools) && call.request.tools.length > 0) usage.inputTokens += TOOL_USE_SYSTEM_TOKENS
        estimate.calls += 1
        estimate.inputTokens += usage.inputTokens
        estimate.outputTokens += usage.outputTokens
        estimate.cacheReadTokens += usage.cacheReadTokens
        estimate.cacheWriteTokens += usage.cacheWriteTokens
        largestPrefix = Math.max(largestPrefix, cacheablePrefixTokens(call.request))
        if (price) {
          estimate.usd += costUsd(price, usage, factor)
          estimate.worstCaseUsd += worstCaseUsd(price, call.request, factor)
        }
      }
      const minimum = cacheMinTokens(prices, model)
      if (largestPrefix > 0 && largestPrefix < minimum) {
        notes.push(
          `${role} prompt caching will not engage: its cacheable prefix (tools and system prompt, up to the cache_control breakpoint) is at most ${integer(largestPrefix)} tokens, shorter than the ${integer(minimum)} tokens ${model} caches at least, so it is billed as plain input (the breakpoint is sent anyway; it costs nothing)`,
        )
      } else if (estimate.cacheReadTokens > 0) {
        notes.push(`${role} prompt caching: ${integer(estimate.cacheReadTokens)} prefix tokens read from the cache at the cache-read price, ${integer(estimate.cacheWriteTokens)} written`)
      }
      return [role, { ...estimate, usd: roundUsd(estimate.usd), worstCaseUsd: roundUsd(estimate.worstCaseUsd) }]
    }),
  ) as Record<ModelRole, RoleEstimate>
  const usd = roundUsd(byRole.generator.usd + byRole.judge.usd)
  const worst = roundUsd(byRole.generator.worstCaseUsd + byRole.judge.worstCaseUsd)
  if (options.maxUsd !== null) {
    if (usd > options.maxUsd) notes.push(`the expected cost is above EVAL_MAX_USD: the run will stop when the next request could cross the cap; what it paid for stays in the cache and a rerun resumes from there`)
    else if (worst > options.maxUsd) {
      const batched = options.batchRoles.size > 0 ? '; a Message Batch takes only the calls whose worst cases fit beside what is in flight, the others wait for the next batch' : ''
      notes.push(`the ceiling is above EVAL_MAX_USD: calls wait for room under the cap and, should the replies run long, the run stops before a request could cross it${batched}`)
    }
  }
  return { basis, byRole: byRole as RunEstimate['byRole'], usd, worstCaseUsd: worst, maxUsd: options.maxUsd, notes }
}
