import { countTextTokens } from '../text/tokenizer.ts'
import type { ModelPrice } from './prices.ts'

/**
 * What a request will cost before it is sent: its input tokens (o200k over the request's system
 * prompt, messages and tools; Claude's tokenizer is not public, o200k counts English prose close to it),
 * the part of them a prompt-cache breakpoint covers, and the worst case (every token at its dearest
 * rate, the reply at max_tokens) that EVAL_MAX_USD is checked against.
 */

/** The parts of a Messages API request body these functions read (a typed request or a server's parsed body). */
export interface RequestShape {
  model?: unknown
  max_tokens?: unknown
  system?: unknown
  messages?: unknown
  tools?: unknown
}

/**
 * Tokens of the tool-use system prompt the API adds to a request with tools and tool_choice any/tool
 * (346 for the Claude 4 models, Anthropic's tool-use pricing page). Billed as input; the local server
 * does not add it, so an estimate runs this much above its figures per judge call.
 */
export const TOOL_USE_SYSTEM_TOKENS = 346

/**
 * Headroom on the o200k count in the worst case: Claude's tokenizer is not public, and on some text (code,
 * figures, other languages) it counts well above o200k; the worst case assumes 35% more.
 */
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

/**
 * The cacheable prefix of a request: tools, then the system blocks, through the last block marked with
 * cache_control (the API caches tools -> system -> messages in that order). Breakpoints inside the
 * messages are not looked at (this tool puts none there). Null when nothing is marked.
 */
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

/**
 * The most a request can cost: its input tokens with the margin, the cacheable prefix at the cache-write
 * price (dearer than plain input) and the rest at the input price, and a reply of max_tokens; times the
 * batch factor for a Message Batches call. EVAL_MAX_USD never lets a request go whose worst case would cross it.
 */
export function worstCaseUsd(price: ModelPrice, request: RequestShape, factor = 1): number {
  const input = requestInputTokens(request)
  const prefix = Math.min(cacheablePrefixTokens(request), input)
  const maxTokens = typeof request.max_tokens === 'number' ? request.max_tokens : 0
  const inputUsd = (prefix * Math.max(price.cacheWrite, price.input) + (input - prefix) * price.input) * TOKEN_COUNT_MARGIN
  return (factor * (inputUsd + maxTokens * price.output)) / 1_000_000
}
