import { APIConnectionError, APIConnectionTimeoutError, APIError } from '@anthropic-ai/sdk'
import { MalformedResponseError } from './model-types.ts'

/**
 * When and how long to retry a failed model call. The SDK's own retries are switched off (maxRetries 0)
 * because its backoff cannot be configured (0.5 s doubling to 8 s, fixed), it does not say how many
 * attempts a call took, and it follows any retry-after however long; this policy does the same job
 * (retry-after and retry-after-ms honoured on 429, 529 and other 5xx, exponential backoff with
 * jitter otherwise) with every number a knob, and the client counts and reports each attempt.
 */
export interface RetryPolicy {
  /** Retries after the first attempt (EVAL_MAX_RETRIES). */
  maxRetries: number
  /** First backoff delay; doubles per retry, with jitter (EVAL_RETRY_BASE_MS). */
  baseDelayMs: number
  /** Longest wait before a retry; a retry-after beyond it ends the retries (EVAL_RETRY_MAX_MS). */
  maxDelayMs: number
}

export interface FailureInfo {
  /** Whether another attempt may succeed (rate limits, overload, server errors, timeouts, dropped connections). */
  retryable: boolean
  /** One line for the final error: status and API message, or what happened to the connection. */
  description: string
  status: number | null
  /** The wait the server asked for (retry-after-ms or retry-after), in ms; null when it asked none. */
  retryAfterMs: number | null
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

/** Classifies an error thrown by the SDK transport. */
export function describeFailure(error: unknown, timeoutMs: number): FailureInfo {
  if (error instanceof APIConnectionTimeoutError) return { retryable: true, description: `no response within the ${timeoutMs} ms timeout`, status: null, retryAfterMs: null }
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ''
    return { retryable: true, description: `connection failed${cause}`, status: null, retryAfterMs: null }
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    const shouldRetry = error.headers?.get('x-should-retry')
    const retryable = shouldRetry === 'true' ? true : shouldRetry === 'false' ? false : isRetryableStatus(error.status)
    const detail = [error.type, error.apiMessage].filter(Boolean).join(': ')
    return { retryable, description: `HTTP ${error.status}${detail ? ` ${detail}` : ''}`, status: error.status, retryAfterMs: retryAfterMs(error.headers) }
  }
  if (error instanceof MalformedResponseError) return { retryable: true, description: error.message, status: null, retryAfterMs: null }
  const message = error instanceof Error ? error.message : String(error)
  return { retryable: false, description: message, status: null, retryAfterMs: null }
}

/**
 * The wait before retry number `retry` (0-based): the server's retry-after when it gave one, else
 * baseDelayMs x 2^retry with jitter (between half and all of it, so concurrent callers spread out),
 * capped at maxDelayMs. Null when the server asked for longer than maxDelayMs: retrying sooner would
 * only be refused again, so the call gives up and says why.
 */
export function retryDelay(retry: number, policy: RetryPolicy, serverAskedMs: number | null, random: () => number = Math.random): number | null {
  if (serverAskedMs !== null) return serverAskedMs <= policy.maxDelayMs ? serverAskedMs : null
  const exponential = policy.baseDelayMs * 2 ** retry
  return Math.min(policy.maxDelayMs, exponential * (0.5 + random() * 0.5))
}
