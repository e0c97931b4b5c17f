import { countTextTokens } from '../text/tokenizer.ts'
import type { ModelPrice } from './prices.ts'

// What a request will cost before it is sent. Counted with o200k: Claude's tokenizer is not public, and o200k counts
// English prose close to it.

/** The parts of a Messages API request body these functions read (a typed request or a server's parsed body). */
export interface RequestShape {
  model?: unknown
  max_tokens?: unknown
  system?: unknown
  messages?: unknown
  tools?: unknown
}

/** The system prompt the API adds for forced tool use (Anthropic's pricing page); the local server does not add it. */
export const TOOL_USE_SYSTEM_TOKENS = 346

/** Headroom on the o200k count in the worst case: Claude's tokenizer counts code, figures and other languages higher. */
export const TOKEN_COUNT_MARGIN = 1.35

/** o200k tokens of the request's JSON (system, messages, tools): what the local server bills as input. */
export function rawRequestTokens(request: RequestShape): number {
  return countTextTokens(JSON.stringify([request.system ?? '', request.messages ?? [], request.tools ?? []]))
}

const hasTools = (request: RequestShape) => Array.isArray(request.tools) && request.tools.length > 0

/** Input tokens the API will bill for the request: its text, plus the tool-use system prompt when it has tools. */
export function requestInputTokens(request: RequestShape): number {
  return rawRequestTokens(request) + (hasTools(request) ? TOOL_USE_SYSTEM_TOKENS : 0)
}

const hasBreakpoint = (block: unknown) =>
  typeof block === 'object' &&
  block !== null &&
  'cache_control' in block &&
  (block as { cache_control?: unknown }).cache_control != null

/** The cacheable prefix (tools, then system) through the last cache_control block; null when nothing is marked. */
export function cacheablePrefix(request: RequestShape): { system: unknown[]; tools: unknown[] } | null {
  const tools = Array.isArray(request.tools) ? request.tools : []
  const system = Array.isArray(request.system) ? request.system : []
  const lastSystem = system.findLastIndex(hasBreakpoint)
  if (lastSystem >= 0) return { system: system.slice(0, lastSystem + 1), tools }
  const lastTool = tools.findLastIndex(hasBreakpoint)
  return lastTool >= 0 ? { system: [], tools: tools.slice(0, lastTool + 1) } : null
}

/** Tokens of the cacheable prefix (counted as rawRequestTokens counts the whole request); 0 without a breakpoint. */
export function cacheablePrefixTokens(request: RequestShape): number {
  const prefix = cacheablePrefix(request)
  return prefix === null ? 0 : countTextTokens(JSON.stringify([prefix.system, [], prefix.tools]))
}

/** The most a request can cost (input with margin, prefix at cache-write price, max_tokens reply): what EVAL_MAX_USD checks. */
export function worstCaseUsd(price: ModelPrice, request: RequestShape, factor = 1): number {
  const input = requestInputTokens(request)
  const prefix = Math.min(cacheablePrefixTokens(request), input)
  const maxTokens = typeof request.max_tokens === 'number' ? request.max_tokens : 0
  const inputUsd = (prefix * Math.max(price.cacheWrite, price.input) + (input - prefix) * price.input) * TOKEN_COUNT_MARGIN
  return (factor * (inputUsd + maxTokens * price.output)) / 1_000_000
}
