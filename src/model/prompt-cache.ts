import { cacheablePrefix, cacheablePrefixTokens, type RequestShape } from './request-cost.ts'
import { sha256Of } from '../common/stable-json.ts'

/** How the API bills a request's input tokens once prompt caching has had its say. */
export interface PromptCacheSplit {
  /** Plain input tokens (what follows the breakpoint, or everything when nothing was cached). */
  input: number
  cacheRead: number
  cacheWrite: number
}

/**
 * Prompt caching as billed (local server, estimate): the prefix through the last breakpoint is written once, then read,
 * per model, if at least the model's minimum. No TTL, and requests settle in arrival order (no concurrent first writes).
 */
export class PromptCacheSimulator {
  readonly #written = new Set<string>()

  constructor(readonly minTokens: (model: string) => number) {}

  /** Splits `inputTokens` (the request's billed input) into plain input, cache reads and cache writes. */
  split(request: RequestShape, inputTokens: number): PromptCacheSplit {
    const prefix = cacheablePrefix(request)
    const model = typeof request.model === 'string' ? request.model : ''
    const prefixTokens = prefix === null ? 0 : Math.min(cacheablePrefixTokens(request), inputTokens)
    // No breakpoint, or a prefix too short for the model to cache: billed as plain input, silently.
    if (prefix === null || prefixTokens < this.minTokens(model)) return { input: inputTokens, cacheRead: 0, cacheWrite: 0 }
    const key = sha256Of({ model, prefix })
    const seen = this.#written.has(key)
    this.#written.add(key)
    return { input: inputTokens - prefixTokens, cacheRead: seen ? prefixTokens : 0, cacheWrite: seen ? 0 : prefixTokens }
  }
}
