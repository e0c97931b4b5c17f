import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { countTextTokens } from '../../system/tokenizer.ts'
import { SCRIPTED_HEADER } from '../model-types.ts'

/**
 * A small Messages API server on 127.0.0.1 for tests and benchmarks: the real @anthropic-ai/sdk talks
 * to it through its baseURL. Each request is answered by a scripted responder (a message, an API
 * error with headers, a dropped connection, or no answer at all), optionally after a fixed latency.
 * It checks requests the way the API does (key header, version header, JSON body with model,
 * max_tokens and messages), counts requests in flight, and keeps each request's body, never its key.
 * Every response carries SCRIPTED_HEADER, so a recording made against it is known to be scripted.
 */

export { SCRIPTED_HEADER }
export const SCRIPTED_SERVER_NAME = 'rag-vitest-eval local Messages API (scripted)'

export interface ReceivedRequest {
  /** 0-based arrival order. */
  index: number
  /** The parsed JSON body. */
  body: Record<string, unknown>
  /** Whether the request carried an API key (its value is never kept). */
  hasApiKey: boolean
  anthropicVersion: string | null
  /** The SDK's X-Stainless-Retry-Count header, when sent. */
  sdkRetryCount: number | null
  receivedAt: number
}

export type ScriptedReply =
  | { kind: 'message'; body: unknown; headers?: Record<string, string> }
  | { kind: 'error'; status: number; errorType: string; message: string; headers?: Record<string, string> }
  /** A 200 whose body is this text as is (e.g. not JSON). */
  | { kind: 'raw'; status: number; body: string; headers?: Record<string, string> }
  /** The connection is destroyed without a response. */
  | { kind: 'drop' }
  /** No response ever (until the client gives up or the server closes). */
  | { kind: 'hang' }

export type Responder = (request: ReceivedRequest) => ScriptedReply | Promise<ScriptedReply>

export interface MessagesServer {
  /** Base URL for the SDK, e.g. http://127.0.0.1:40123 */
  readonly url: string
  /** Every request received, in arrival order. */
  readonly requests: ReceivedRequest[]
  /** Requests received and not yet answered. */
  readonly inFlight: number
  /** The most requests in flight at any one time since start (or the last resetStats). */
  readonly maxInFlight: number
  /** Fixed delay before every reply (ms). */
  latencyMs: number
  setResponder(responder: Responder): void
  resetStats(): void
  close(): Promise<void>
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'request-id': `req_local_${Date.now().toString(36)}`, [SCRIPTED_HEADER]: SCRIPTED_SERVER_NAME, ...headers })
  res.end(text)
}

export function apiErrorBody(errorType: string, message: string) {
  return { type: 'error', error: { type: errorType, message } }
}

/** Starts the server on 127.0.0.1 (a free port unless given). */
export async function startMessagesServer(responder: Responder, options: { latencyMs?: number; port?: number } = {}): Promise<MessagesServer> {
  let current = responder
  const requests: ReceivedRequest[] = []
  let inFlight = 0
  let maxInFlight = 0
  const sockets = new Set<Socket>()

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    if (req.method !== 'POST' || !req.url?.startsWith('/v1/messages')) return sendJson(res, 404, apiErrorBody('not_found_error', `${req.method} ${req.url}: not found`))
    // The SDK sends the key as `Authorization: Bearer <key>` (older versions: x-api-key); either will do.
    const bearer = req.headers.authorization
    const hasApiKey = (typeof req.headers['x-api-key'] === 'string' && req.headers['x-api-key'] !== '') || (typeof bearer === 'string' && /^Bearer \S+/.test(bearer))
    if (!hasApiKey) return sendJson(res, 401, apiErrorBody('authentication_error', 'an API key is required (x-api-key or Authorization: Bearer)'))
    const version = req.headers['anthropic-version']
    if (typeof version !== 'string') return sendJson(res, 400, apiErrorBody('invalid_request_error', 'anthropic-version header is required'))
    let body: unknown
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
    } catch {
      return sendJson(res, 400, apiErrorBody('invalid_request_error', 'request body is not valid JSON'))
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) return sendJson(res, 400, apiErrorBody('invalid_request_error', 'request body must be a JSON object'))
    const fields = body as Record<string, unknown>
    for (const field of ['model', 'max_tokens', 'messages'] as const) {
      if (fields[field] === undefined) return sendJson(res, 400, apiErrorBody('invalid_request_error', `${field}: Field required`))
    }
    const retryHeader = req.headers['x-stainless-retry-count']
    const received: ReceivedRequest = {
      index: requests.length,
      body: fields,
      hasApiKey,
      anthropicVersion: version,
      sdkRetryCount: typeof retryHeader === 'string' ? Number(retryHeader) : null,
      receivedAt: Date.now(),
    }
    requests.push(received)
    inFlight += 1
    maxInFlight = Math.max(maxInFlight, inFlight)
    let settled = false
    const settle = () => {
      if (settled) return
      settled = true
      inFlight -= 1
    }
    res.on('close', settle)
    try {
      const reply = await current(received)
      if (server.latencyMs > 0) await sleep(server.latencyMs)
      switch (reply.kind) {
        case 'message':
          return sendJson(res, 200, reply.body, reply.headers)
        case 'error':
          return sendJson(res, reply.status, apiErrorBody(reply.errorType, reply.message), reply.headers)
        case 'raw':
          res.writeHead(reply.status, { 'content-type': 'application/json', [SCRIPTED_HEADER]: SCRIPTED_SERVER_NAME, ...reply.headers })
          res.end(reply.body)
          return
        case 'drop':
          req.socket.destroy()
          return
        case 'hang':
          return
      }
    } catch (error) {
      sendJson(res, 500, apiErrorBody('api_error', `scripted responder failed: ${(error as Error).message}`))
    }
  }

  const httpServer = createServer((req, res) => {
    handle(req, res).catch(() => res.destroy())
  })
  httpServer.on('connection', (socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject)
    httpServer.listen(options.port ?? 0, '127.0.0.1', () => resolve())
  })
  const { port } = httpServer.address() as AddressInfo

  const server: MessagesServer = {
    url: `http://127.0.0.1:${port}`,
    requests,
    get inFlight() {
      return inFlight
    },
    get maxInFlight() {
      return maxInFlight
    },
    latencyMs: options.latencyMs ?? 0,
    setResponder(next) {
      current = next
    },
    resetStats() {
      requests.length = 0
      maxInFlight = inFlight
    },
    close() {
      return new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy()
        httpServer.close(() => resolve())
      })
    },
  }
  return server
}

// ---------- replies ----------

export interface ReplyUsage {
  input_tokens: number
  output_tokens: number
  cache_read_input_tokens?: number
  cache_creation_input_tokens?: number
}

/** Input tokens of a request as the server estimates them (o200k over its text; close to Claude's count). */
export function estimateInputTokens(body: Record<string, unknown>): number {
  return countTextTokens(JSON.stringify([body.system ?? '', body.messages ?? [], body.tools ?? []]))
}

/** A message id derived from the request and the reply, so the same exchange always has the same id (stable recordings). */
function messageId(request: ReceivedRequest, outputText: string): string {
  return `msg_local_${createHash('sha256').update(JSON.stringify(request.body)).update(outputText).digest('hex').slice(0, 24)}`
}

function messageBody(request: ReceivedRequest, content: unknown[], stopReason: string, outputText: string, usage?: Partial<ReplyUsage>) {
  return {
    id: messageId(request, outputText),
    type: 'message',
    role: 'assistant',
    model: typeof request.body.model === 'string' ? request.body.model : 'unknown',
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: {
      input_tokens: usage?.input_tokens ?? estimateInputTokens(request.body),
      output_tokens: usage?.output_tokens ?? Math.max(1, countTextTokens(outputText)),
      cache_read_input_tokens: usage?.cache_read_input_tokens ?? 0,
      cache_creation_input_tokens: usage?.cache_creation_input_tokens ?? 0,
    },
  }
}

/** The tool a request forces (tool_choice {type: tool}), else its first tool. */
export function forcedToolName(request: ReceivedRequest): string | null {
  const choice = request.body.tool_choice as { type?: string; name?: string } | undefined
  if (choice?.type === 'tool' && typeof choice.name === 'string') return choice.name
  const tools = request.body.tools as { name?: string }[] | undefined
  return tools?.[0]?.name ?? null
}

/** A 200 reply calling the request's tool with `input`. */
export function toolUseReply(request: ReceivedRequest, input: unknown, options: { stopReason?: string; usage?: Partial<ReplyUsage>; name?: string } = {}): ScriptedReply {
  const name = options.name ?? forcedToolName(request) ?? 'tool'
  const block = { type: 'tool_use', id: messageId(request, JSON.stringify(input)).replace('msg_', 'toolu_'), name, input }
  return { kind: 'message', body: messageBody(request, [block], options.stopReason ?? 'tool_use', JSON.stringify(input), options.usage) }
}

/** A 200 reply with one text block. */
export function textReply(request: ReceivedRequest, text: string, options: { stopReason?: string; usage?: Partial<ReplyUsage> } = {}): ScriptedReply {
  return { kind: 'message', body: messageBody(request, [{ type: 'text', text }], options.stopReason ?? 'end_turn', text, options.usage) }
}

/** An API error reply (e.g. 429 rate_limit_error with retry-after, 529 overloaded_error, 500 api_error). */
export function errorReply(status: number, errorType: string, message: string, headers: Record<string, string> = {}): ScriptedReply {
  return { kind: 'error', status, errorType, message, headers }
}
