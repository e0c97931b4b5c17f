import { APIConnectionError, APIConnectionTimeoutError, APIError } from '@anthropic-ai/sdk'
import { isRetryableStatus, retryAfterMs } from '../common/backoff.ts'
import { MalformedResponseError } from './model-types.ts'

// The SDK's retries are off (maxRetries 0): its backoff cannot be configured, it does not count attempts, and it follows
// any retry-after however long. common/backoff.ts has every number a knob.

export interface FailureInfo {
  /** Whether another attempt may succeed (rate limits, overload, server errors, timeouts, dropped connections). */
  retryable: boolean
  /** One line for the final error: status and API message, or what happened to the connection. */
  description: string
  status: number | null
  /** The wait the server asked for (retry-after-ms or retry-after), in ms; null when it asked none. */
  retryAfterMs: number | null
}

/** Classifies an error thrown by the SDK transport. */
export function describeFailure(error: unknown, timeoutMs: number): FailureInfo {
  if (error instanceof APIConnectionTimeoutError)
    return { retryable: true, description: `no response within the ${timeoutMs} ms timeout`, status: null, retryAfterMs: null }
  if (error instanceof APIConnectionError) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : ''
    return { retryable: true, description: `connection failed${cause}`, status: null, retryAfterMs: null }
  }
  if (error instanceof APIError && typeof error.status === 'number') {
    // `instanceof` leaves the SDK's generic header type as `any`.
    const headers = error.headers as Headers | undefined
    const shouldRetry = headers?.get('x-should-retry')
    const retryable = shouldRetry === 'true' ? true : shouldRetry === 'false' ? false : isRetryableStatus(error.status)
    const detail = [error.type, error.apiMessage].filter(Boolean).join(': ')
    return {
      retryable,
      description: `HTTP ${error.status}${detail ? ` ${detail}` : ''}`,
      status: error.status,
      retryAfterMs: retryAfterMs(headers),
    }
  }
  if (error instanceof MalformedResponseError)
    return { retryable: true, description: error.message, status: null, retryAfterMs: null }
  const message = error instanceof Error ? error.message : String(error)
  return { retryable: false, description: message, status: null, retryAfterMs: null }
}
