import { MODEL_ROLES, type ModelRole, type RoleEstimate, type RunEstimate } from '../contract/model-usage-schema.ts'
import type { ModelCall, ModelResult } from './model-types.ts'
import { cacheMinTokens, costUsd, priceOf, type PriceTable } from './prices.ts'
import { cacheablePrefixTokens, TOOL_USE_SYSTEM_TOKENS, worstCaseUsd } from './request-cost.ts'
import { addTokens, roundUsd } from './usage-ledger.ts'

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
 * Prices a dry run's calls as sent (cache hits free, prompt caching applied): expected at a typical reply, worst case at
 * max_tokens. Repairs are not priced: every dry-run reply fails validation, a real run's rarely do.
 */
export function summariseEstimate(
  observed: readonly ObservedCall[],
  prices: PriceTable,
  options: EstimateOptions,
  basis: string,
): RunEstimate {
  const notes: string[] = []
  const byRole = Object.fromEntries(
    MODEL_ROLES.map((role): [ModelRole, RoleEstimate] => [role, estimateRole(role, observed, prices, options, notes)]),
  ) as Record<ModelRole, RoleEstimate>
  const usd = roundUsd(byRole.generator.usd + byRole.judge.usd)
  const worst = roundUsd(byRole.generator.worstCaseUsd + byRole.judge.worstCaseUsd)
  if (options.maxUsd !== null) notes.push(...capNotes(usd, worst, options.maxUsd, options.batchRoles.size > 0))
  return { basis, byRole, usd, worstCaseUsd: worst, maxUsd: options.maxUsd, notes }
}

/** One role's calls priced; a note on its prompt caching (will not engage, or what it reads) goes to `notes`. */
function estimateRole(
  role: ModelRole,
  observed: readonly ObservedCall[],
  prices: PriceTable,
  options: EstimateOptions,
  notes: string[],
): RoleEstimate {
  const model = options.models[role]
  const price = priceOf(prices, model)
  const batch = options.batchRoles.has(role)
  const factor = batch ? prices.batchFactor : 1
  const estimate: RoleEstimate = {
    model,
    calls: 0,
    cached: 0,
    inputTokens: 0,
    outputTokens: 0,
    cacheReadTokens: 0,
    cacheWriteTokens: 0,
    usd: 0,
    worstCaseUsd: 0,
    batch,
  }
  let largestPrefix = 0
  for (const { call, result } of observed) {
    if (call.role !== role || call.purpose.endsWith(':repair')) continue
    if (result.source !== 'api') {
      estimate.cached += 1
      continue
    }
    const usage = { ...result.response.usage }
    if (Array.isArray(call.request.tools) && call.request.tools.length > 0) usage.inputTokens += TOOL_USE_SYSTEM_TOKENS
    estimate.calls += 1
    addTokens(estimate, usage)
    largestPrefix = Math.max(largestPrefix, cacheablePrefixTokens(call.request))
    if (price) {
      estimate.usd += costUsd(price, usage, factor)
      estimate.worstCaseUsd += worstCaseUsd(price, call.request, factor)
    }
  }
  const minimum = cacheMinTokens(prices, model)
  if (largestPrefix > 0 && largestPrefix < minimum) {
    notes.push(
      `${role} prompt caching will not engage: its cacheable prefix (tools and system prompt, ` +
        `up to the cache_control breakpoint) is at most ${integer(largestPrefix)} tokens, ` +
        `shorter than the ${integer(minimum)} tokens ${model} caches at least, ` +
        `so it is billed as plain input (the breakpoint is sent anyway; it costs nothing)`,
    )
  } else if (estimate.cacheReadTokens > 0) {
    notes.push(
      `${role} prompt caching: ${integer(estimate.cacheReadTokens)} prefix tokens read from the cache at ` +
        `the cache-read price, ${integer(estimate.cacheWriteTokens)} written`,
    )
  }
  return { ...estimate, usd: roundUsd(estimate.usd), worstCaseUsd: roundUsd(estimate.worstCaseUsd) }
}

/** What the expected cost and the ceiling mean under EVAL_MAX_USD: nothing when both fit. */
function capNotes(usd: number, worst: number, maxUsd: number, batched: boolean): string[] {
  if (usd > maxUsd)
    return [
      `the expected cost is above EVAL_MAX_USD: the run will stop when the next request could cross the ` +
        `cap; what it paid for stays in the cache and a rerun resumes from there`,
    ]
  if (worst > maxUsd) {
    const batches = batched
      ? '; a Message Batch takes only the calls whose worst cases fit beside what is in flight, the others wait for the next batch'
      : ''
    return [
      `the ceiling is above EVAL_MAX_USD: calls wait for room under the cap and, ` +
        `should the replies run long, the run stops before a request could cross it${batches}`,
    ]
  }
  return []
}
