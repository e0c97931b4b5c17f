/** When and how long to retry a failed HTTP call: every number a knob, so the caller counts and reports each attempt. */
export interface RetryPolicy {
  /** Retries after the first attempt (EVAL_MAX_RETRIES). */
  maxRetries: number
  /** First backoff delay; doubles per retry, with jitter (config retryBaseMs). */
  baseDelayMs: number
  /** Longest wait before a retry; a retry-after beyond it ends the retries (config retryMaxMs). */
  maxDelayMs: number
}

/** Parses retry-after-ms (milliseconds) or retry-after (seconds, or an HTTP date) from response headers. */
export function retryAfterMs(headers: Headers | undefined, now: number = Date.now()): number | null {
  if (!headers) return null
  const ms = headers.get('retry-after-ms')
  if (ms !== null && ms.trim() !== '' && Number.isFinite(Number(ms))) return Math.max(0, Number(ms))
  const after = headers.get('retry-after')
  if (after === null || after.trim() === '') return null
  if (Number.isFinite(Number(after))) return Math.max(0, Number(after) * 1000)
  const date = Date.parse(after)
  return Number.isNaN(date) ? null : Math.max(0, date - now)
}

/** HTTP statuses worth another attempt: request timeout, lock timeout, rate limit, server errors (incl. 529 overloaded). */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || status >= 500
}

/**
 * The wait before retry `retry` (0-based): the server's retry-after, else baseDelayMs x 2^retry with jitter (so callers
 * spread out), capped at maxDelayMs. Null when the server asks for longer: a sooner retry would only be refused again.
 */
export function retryDelay(
  retry: number,
  policy: RetryPolicy,
  serverAskedMs: number | null,
  random: () => number = Math.random,
): number | null {
  if (serverAskedMs !== null) return serverAskedMs <= policy.maxDelayMs ? serverAskedMs : null
  const exponential = policy.baseDelayMs * 2 ** retry
  return Math.min(policy.maxDelayMs, exponential * (0.5 + random() * 0.5))
}
