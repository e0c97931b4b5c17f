import Anthropic, { APIConnectionError, APIError } from '@anthropic-ai/sdk'
import {
  MalformedResponseError,
  normaliseMessage,
  SCRIPTED_HEADER,
  type MessageRequest,
  type ModelResponse,
} from './model-types.ts'

export const DEFAULT_BASE_URL = 'https://api.anthropic.com'

export interface TransportReply {
  response: ModelResponse
  /** The server marked its response as scripted (the local test server does): not a real model's output. */
  scripted: boolean
}

/** Sends one request, once (no retries: the client's retry policy decides), within `timeoutMs`. */
export type MessagesTransport = (request: MessageRequest, timeoutMs: number) => Promise<TransportReply>

/**
 * The Messages API through the official SDK. Its own retries are off (maxRetries 0) so the client's
 * policy is the only one; the SDK still sends its headers, enforces the timeout per request, and
 * turns HTTP errors into typed errors with their headers (retry-after) for the policy to read.
 */
export function createSdkTransport(options: { apiKey: string; baseURL: string }): MessagesTransport {
  const client = new Anthropic({ apiKey: options.apiKey, baseURL: options.baseURL, maxRetries: 0 })
  return async (request, timeoutMs) => {
    let data: unknown
    let headers: Headers
    try {
      const result = await client.messages.create(request, { timeout: timeoutMs, maxRetries: 0 }).withResponse()
      data = result.data
      headers = result.response.headers
    } catch (error) {
      if (error instanceof APIError || error instanceof APIConnectionError) throw error
      // A 200 whose body is not JSON surfaces as a parse error from the SDK.
      if (error instanceof SyntaxError) throw new MalformedResponseError(`unreadable Messages API response: ${error.message}`)
      throw error
    }
    return { response: normaliseMessage(data), scripted: headers.get(SCRIPTED_HEADER) !== null }
  }
}

/** The base URL without credentials or trailing slash, fit for metadata and messages. */
export function describeBaseUrl(baseURL: string): string {
  try {
    const url = new URL(baseURL)
    url.username = ''
    url.password = ''
    return url.toString().replace(/\/$/, '')
  } catch {
    return '(unparseable base URL)'
  }
}
