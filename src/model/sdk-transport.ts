import Anthropic from '@anthropic-ai/sdk'
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

/** The official SDK's client, its own retries off (maxRetries 0) so the client's policy is the only one. */
export function anthropicClient(options: { apiKey: string; baseURL: string }): Anthropic {
  return new Anthropic({ apiKey: options.apiKey, baseURL: options.baseURL, maxRetries: 0 })
}

/** Types an SDK failure for the retry policy: HTTP errors keep their headers; a non-JSON 200 is a MalformedResponseError. */
export function sdkCall<T>(api: string, call: () => Promise<T>): Promise<T> {
  return call().catch((error: unknown) => {
    if (error instanceof SyntaxError) throw new MalformedResponseError(`unreadable ${api} response: ${error.message}`)
    throw error
  })
}

/** The Messages API through the official SDK: it sends its headers and enforces the timeout per request. */
export function createSdkTransport(options: { apiKey: string; baseURL: string }): MessagesTransport {
  const client = anthropicClient(options)
  return (request, timeoutMs) =>
    sdkCall('Messages API', async () => {
      const { data, response } = await client.messages.create(request, { timeout: timeoutMs, maxRetries: 0 }).withResponse()
      return { response: normaliseMessage(data), scripted: response.headers.get(SCRIPTED_HEADER) !== null }
    })
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
