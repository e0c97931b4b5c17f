import { createHash } from 'node:crypto'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { countTextTokens } from '../text/tokenizer.ts'
import { SCRIPTED_HEADER } from '../model/model-types.ts'
import { PromptCacheSimulator, type PromptCacheSplit } from '../model/prompt-cache.ts'
import { rawRequestTokens } from '../model/request-cost.ts'

// A Messages API server on 127.0.0.1 for tests and benchmarks, which the real SDK reaches through its baseURL. It checks
// requests as the API does, keeps bodies (never keys), and marks every response SCRIPTED_HEADER so a recording made
// against it is known to be scripted. Optional: prompt-cache billing (prompt-cache.ts) and Message Batches whose
// outcomes `batchPlan` decides.

const SCRIPTED_SERVER_NAME = 'rag-vitest-eval local Messages API (scripted)'

export interface ReceivedRequest {
  /** 0-based arrival order. */
  index: number
  /** The parsed JSON body. */
  body: Record<string, unknown>
  /** The SDK's X-Stainless-Retry-Count header, when sent. */
  sdkRetryCount: number | null
  receivedAt: number
  /** How the server bills the request's input under prompt caching (set when the server simulates it). */
  promptCache?: PromptCacheSplit
  /** The batch the request came in (a Message Batches item), with its custom_id. */
  batch?: { id: string; customId: string }
}

/** What becomes of one item of a batch: answered by the responder, or errored / expired / canceled without an answer. */
export type BatchItemOutcome = 'succeeded' | 'expired' | 'canceled' | { errored: { type: string; message: string } }

export interface BatchPlan {
  /** Retrieves that still find the batch in progress before it ends (0: ended at the first retrieve). */
  pollsInProgress: number
  /** Each item's fate, by its custom_id and its place in the batch. */
  outcome: (item: { customId: string; index: number; params: Record<string, unknown> }) => BatchItemOutcome
}

/** A batch the server received. */
export interface ReceivedBatch {
  id: string
  requests: { custom_id: string; params: Record<string, unknown> }[]
  /** Retrieves so far (the SDK's results() makes one too, for the results_url). */
  polls: number
  ended: boolean
  /** Results lines, once ended, in submission order. */
  results: unknown[] | null
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

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    'request-id': `req_local_${Date.now().toString(36)}`,
    [SCRIPTED_HEADER]: SCRIPTED_SERVER_NAME,
    ...headers,
  })
  res.end(text)
}

function apiErrorBody(errorType: string, message: string) {
  return { type: 'error', error: { type: errorType, message } }
}

export const DEFAULT_BATCH_PLAN: BatchPlan = { pollsInProgress: 1, outcome: () => 'succeeded' }

export interface MessagesServerOptions {
  latencyMs?: number
  port?: number
  /** Bill prompt caching, with this minimum cacheable prefix per model (e.g. the price table's cacheMinTokens). */
  promptCache?: (model: string) => number
}

/** The routes the server knows: POST a message or a batch, GET a batch or its results. */
const BATCH_PATH = /^\/v1\/messages\/batches(?:\/([A-Za-z0-9_-]+)(\/results)?)?$/

/** Checks the key and version headers as the API does; sends the error and returns false when one is wrong. */
function acceptedHeaders(req: IncomingMessage, res: ServerResponse): boolean {
  // The SDK sends the key as `Authorization: Bearer <key>` (older versions: x-api-key); either will do.
  const bearer = req.headers.authorization
  const hasApiKey =
    (typeof req.headers['x-api-key'] === 'string' && req.headers['x-api-key'] !== '') ||
    (typeof bearer === 'string' && /^Bearer \S+/.test(bearer))
  if (!hasApiKey) {
    sendJson(res, 401, apiErrorBody('authentication_error', 'an API key is required (x-api-key or Authorization: Bearer)'))
    return false
  }
  if (typeof req.headers['anthropic-version'] !== 'string') {
    sendJson(res, 400, apiErrorBody('invalid_request_error', 'anthropic-version header is required'))
    return false
  }
  return true
}

/** The request body as a JSON object; sends the error and returns null when it is not one. */
function jsonObjectBody(chunks: Buffer[], res: ServerResponse): Record<string, unknown> | null {
  let body: unknown
  try {
    body = JSON.parse(Buffer.concat(chunks).toString('utf8'))
  } catch {
    sendJson(res, 400, apiErrorBody('invalid_request_error', 'request body is not valid JSON'))
    return null
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    sendJson(res, 400, apiErrorBody('invalid_request_error', 'request body must be a JSON object'))
    return null
  }
  return body as Record<string, unknown>
}

function missingField(fields: Record<string, unknown>): string | null {
  for (const field of ['model', 'max_tokens', 'messages'] as const) if (fields[field] === undefined) return field
  return null
}

/** What is wrong with a batch's list of requests, as the API words it; null when nothing is. */
function batchRequestsProblem(items: unknown): string | null {
  if (!Array.isArray(items) || items.length === 0) return 'requests: expected a non-empty list'
  const ids = new Set<string>()
  for (const [i, item] of items.entries()) {
    const { custom_id: id, params } = (item ?? {}) as { custom_id?: unknown; params?: unknown }
    if (typeof id !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(id))
      return `requests.${i}.custom_id: 1 to 64 letters, digits, _ or -`
    if (ids.has(id)) return `requests.${i}.custom_id: ${id} is not unique`
    ids.add(id)
    if (typeof params !== 'object' || params === null) return `requests.${i}.params: Field required`
    const missing = missingField(params as Record<string, unknown>)
    if (missing) return `requests.${i}.params.${missing}: Field required`
  }
  return null
}

/** A batch as the Message Batches API describes it; `url` is the server's, for the results_url. */
function batchObject(batch: ReceivedBatch, url: string) {
  const counts = { processing: 0, succeeded: 0, errored: 0, canceled: 0, expired: 0 }
  if (!batch.ended) counts.processing = batch.requests.length
  for (const line of batch.results ?? []) {
    const type = (line as { result: { type: keyof typeof counts } }).result.type
    counts[type] += 1
  }
  return {
    id: batch.id,
    type: 'message_batch',
    processing_status: batch.ended ? 'ended' : 'in_progress',
    request_counts: counts,
    ended_at: batch.ended ? new Date().toISOString() : null,
    created_at: new Date().toISOString(),
    expires_at: new Date(Date.now() + 86_400_000).toISOString(),
    archived_at: null,
    cancel_initiated_at: null,
    results_url: batch.ended ? `${url}/v1/messages/batches/${batch.id}/results` : null,
  }
}

/** One line of a batch's results file for an item the responder answered. */
function batchResultLine(customId: string, reply: ScriptedReply): unknown {
  if (reply.kind === 'message') return { custom_id: customId, result: { type: 'succeeded', message: reply.body } }
  if (reply.kind === 'error')
    return { custom_id: customId, result: { type: 'errored', error: apiErrorBody(reply.errorType, reply.message) } }
  return {
    custom_id: customId,
    result: { type: 'errored', error: apiErrorBody('api_error', `the item ended without a message (${reply.kind})`) },
  }
}

function sendResults(res: ServerResponse, batch: ReceivedBatch): void {
  if (!batch.ended || !batch.results)
    return sendJson(res, 400, apiErrorBody('invalid_request_error', `message batch ${batch.id} has not ended`))
  const text = batch.results.map((line) => JSON.stringify(line)).join('\n') + '\n'
  res.writeHead(200, {
    'content-type': 'application/binary',
    'content-length': Buffer.byteLength(text),
    [SCRIPTED_HEADER]: SCRIPTED_SERVER_NAME,
  })
  res.end(text)
}

/** Sends the responder's reply to a Messages request (or drops the connection, or never answers). */
function sendReply(req: IncomingMessage, res: ServerResponse, reply: ScriptedReply): void {
  switch (reply.kind) {
    case 'message':
      return sendJson(res, 200, reply.body, reply.headers)
    case 'error':
      return sendJson(res, reply.status, apiErrorBody(reply.errorType, reply.message), reply.headers)
    case 'raw':
      res.writeHead(reply.status, {
        'content-type': 'application/json',
        [SCRIPTED_HEADER]: SCRIPTED_SERVER_NAME,
        ...reply.headers,
      })
      res.end(reply.body)
      return
    case 'drop':
      req.socket.destroy()
      return
    case 'hang':
      return
  }
}

/** The server's state and request handling, handed out by startMessagesServer once it listens. */
export class MessagesServer {
  /** Base URL for the SDK, e.g. http://127.0.0.1:40123 */
  url = ''
  /** Every request received, in arrival order. */
  readonly requests: ReceivedRequest[] = []
  /** Every Message Batch received, in order. */
  readonly batches: ReceivedBatch[] = []
  /** Fixed delay before every reply (ms). */
  latencyMs: number
  /** How batches progress and end (default: in progress for one retrieve, then every item succeeds). */
  batchPlan: BatchPlan = DEFAULT_BATCH_PLAN
  #responder: Responder
  #batchCount = 0
  #inFlight = 0
  #maxInFlight = 0
  readonly #sockets = new Set<Socket>()
  readonly #promptCache: PromptCacheSimulator | null
  readonly #httpServer: Server

  constructor(responder: Responder, options: MessagesServerOptions) {
    this.#responder = responder
    this.latencyMs = options.latencyMs ?? 0
    this.#promptCache = options.promptCache ? new PromptCacheSimulator(options.promptCache) : null
    this.#httpServer = createServer((req, res) => {
      this.#handle(req, res).catch(() => res.destroy())
    })
    this.#httpServer.on('connection', (socket) => {
      this.#sockets.add(socket)
      socket.on('close', () => this.#sockets.delete(socket))
    })
  }

  /** Requests received and not yet answered. */
  get inFlight(): number {
    return this.#inFlight
  }

  /** The most requests in flight at any one time since start (or the last resetStats). */
  get maxInFlight(): number {
    return this.#maxInFlight
  }

  setResponder(next: Responder): void {
    this.#responder = next
  }

  resetStats(): void {
    this.requests.length = 0
    this.batches.length = 0
    this.#maxInFlight = this.#inFlight
  }

  close(): Promise<void> {
    return new Promise<void>((resolve) => {
      for (const socket of this.#sockets) socket.destroy()
      this.#httpServer.close(() => resolve())
    })
  }

  /** Listens on 127.0.0.1 (a free port when `port` is 0); the url is set once listening. */
  async listen(port: number): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.#httpServer.once('error', reject)
      this.#httpServer.listen(port, '127.0.0.1', () => resolve())
    })
    this.url = `http://127.0.0.1:${(this.#httpServer.address() as AddressInfo).port}`
  }

  /** A request as the responder sees it, its input billed under prompt caching when the server simulates it. */
  #received(body: Record<string, unknown>, how: Pick<ReceivedRequest, 'index' | 'sdkRetryCount' | 'batch'>): ReceivedRequest {
    const split = this.#promptCache?.split(body, rawRequestTokens(body))
    return { ...how, body, receivedAt: Date.now(), ...(split ? { promptCache: split } : {}) }
  }

  /** The responder's reply; its failure becomes an api_error, as the API's would. */
  async #reply(received: ReceivedRequest): Promise<ScriptedReply> {
    try {
      return await this.#responder(received)
    } catch (error) {
      return errorReply(500, 'api_error', `scripted responder failed: ${(error as Error).message}`)
    }
  }

  async #handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const path = (req.url ?? '').split('?')[0] ?? ''
    const batchPath = BATCH_PATH.exec(path)
    const known =
      (req.method === 'POST' && (path === '/v1/messages' || path === '/v1/messages/batches')) ||
      (req.method === 'GET' && batchPath?.[1] !== undefined)
    if (!known) return sendJson(res, 404, apiErrorBody('not_found_error', `${req.method} ${req.url}: not found`))
    if (!acceptedHeaders(req, res)) return
    if (req.method === 'GET') return this.#retrieveBatch(res, batchPath?.[1], batchPath?.[2] !== undefined)
    const fields = jsonObjectBody(chunks, res)
    if (fields === null) return
    if (path === '/v1/messages/batches') return this.#createBatch(res, fields)
    const missing = missingField(fields)
    if (missing) return sendJson(res, 400, apiErrorBody('invalid_request_error', `${missing}: Field required`))
    const retryHeader = req.headers['x-stainless-retry-count']
    const sdkRetryCount = typeof retryHeader === 'string' ? Number(retryHeader) : null
    await this.#answer(req, res, this.#received(fields, { index: this.requests.length, sdkRetryCount }))
  }

  /** Answers a Messages request by the responder, counting it in flight until its connection closes. */
  async #answer(req: IncomingMessage, res: ServerResponse, received: ReceivedRequest): Promise<void> {
    this.requests.push(received)
    this.#inFlight += 1
    this.#maxInFlight = Math.max(this.#maxInFlight, this.#inFlight)
    let settled = false
    const settle = () => {
      if (settled) return
      settled = true
      this.#inFlight -= 1
    }
    res.on('close', settle)
    const reply = await this.#reply(received)
    if (this.latencyMs > 0) await sleep(this.latencyMs)
    sendReply(req, res, reply)
  }

  /** A retrieve ends the batch once the plan's in-progress polls are used up; `results` asks for its results file. */
  async #retrieveBatch(res: ServerResponse, id: string | undefined, results: boolean): Promise<void> {
    const batch = this.batches.find((b) => b.id === id)
    if (!batch) return sendJson(res, 404, apiErrorBody('not_found_error', `no message batch ${id}`))
    if (results) return sendResults(res, batch)
    batch.polls += 1
    if (!batch.ended && batch.polls > this.batchPlan.pollsInProgress) await this.#endBatch(batch)
    return sendJson(res, 200, batchObject(batch, this.url))
  }

  #createBatch(res: ServerResponse, fields: Record<string, unknown>): void {
    const problem = batchRequestsProblem(fields.requests)
    if (problem !== null) return sendJson(res, 400, apiErrorBody('invalid_request_error', problem))
    const batch: ReceivedBatch = {
      id: `msgbatch_local_${String((this.#batchCount += 1)).padStart(4, '0')}`,
      requests: fields.requests as ReceivedBatch['requests'],
      polls: 0,
      ended: false,
      results: null,
    }
    this.batches.push(batch)
    sendJson(res, 200, batchObject(batch, this.url))
  }

  /** Ends a batch: each item's outcome by the plan, the succeeded ones answered by the responder, in submission order. */
  async #endBatch(batch: ReceivedBatch): Promise<void> {
    const results: unknown[] = []
    for (const [index, { custom_id: customId, params }] of batch.requests.entries()) {
      const outcome = this.batchPlan.outcome({ customId, index, params })
      if (outcome === 'expired' || outcome === 'canceled') {
        results.push({ custom_id: customId, result: { type: outcome } })
        continue
      }
      if (outcome !== 'succeeded') {
        results.push({ custom_id: customId, result: { type: 'errored', error: { type: 'error', error: outcome.errored } } })
        continue
      }
      const item = this.#received(params, { index: -1, sdkRetryCount: null, batch: { id: batch.id, customId } })
      results.push(batchResultLine(customId, await this.#reply(item)))
    }
    batch.results = results
    batch.ended = true
  }
}

/** Starts the server on 127.0.0.1 (a free port unless given). */
export async function startMessagesServer(responder: Responder, options: MessagesServerOptions = {}): Promise<MessagesServer> {
  const server = new MessagesServer(responder, options)
  await server.listen(options.port ?? 0)
  return server
}

// ---------- replies ----------

export interface ReplyUsage {
  input_tokens: number
  output_tokens: number
  cache_read_input_tokens?: number
  cache_creation_input_tokens?: number
}

/** A message id derived from the request and the reply, so the same exchange always has the same id (stable recordings). */
function messageId(request: ReceivedRequest, outputText: string): string {
  return `msg_local_${createHash('sha256').update(JSON.stringify(request.body)).update(outputText).digest('hex').slice(0, 24)}`
}

function messageBody(
  request: ReceivedRequest,
  content: unknown[],
  stopReason: string,
  outputText: string,
  usage?: Partial<ReplyUsage>,
) {
  return {
    id: messageId(request, outputText),
    type: 'message',
    role: 'assistant',
    model: typeof request.body.model === 'string' ? request.body.model : 'unknown',
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    // A responder that gives usage is taken at its word; otherwise the server's own count, prompt caching applied.
    usage: {
      input_tokens: usage?.input_tokens ?? (usage ? undefined : request.promptCache?.input) ?? rawRequestTokens(request.body),
      output_tokens: usage?.output_tokens ?? Math.max(1, countTextTokens(outputText)),
      cache_read_input_tokens: usage?.cache_read_input_tokens ?? (usage ? undefined : request.promptCache?.cacheRead) ?? 0,
      cache_creation_input_tokens:
        usage?.cache_creation_input_tokens ?? (usage ? undefined : request.promptCache?.cacheWrite) ?? 0,
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
export function toolUseReply(
  request: ReceivedRequest,
  input: unknown,
  options: { stopReason?: string; usage?: Partial<ReplyUsage>; name?: string } = {},
): ScriptedReply {
  const name = options.name ?? forcedToolName(request) ?? 'tool'
  const block = { type: 'tool_use', id: messageId(request, JSON.stringify(input)).replace('msg_', 'toolu_'), name, input }
  return {
    kind: 'message',
    body: messageBody(request, [block], options.stopReason ?? 'tool_use', JSON.stringify(input), options.usage),
  }
}

/** A 200 reply with one text block. */
export function textReply(
  request: ReceivedRequest,
  text: string,
  options: { stopReason?: string; usage?: Partial<ReplyUsage> } = {},
): ScriptedReply {
  return {
    kind: 'message',
    body: messageBody(request, [{ type: 'text', text }], options.stopReason ?? 'end_turn', text, options.usage),
  }
}

/** An API error reply (e.g. 429 rate_limit_error with retry-after, 529 overloaded_error, 500 api_error). */
export function errorReply(
  status: number,
  errorType: string,
  message: string,
  headers: Record<string, string> = {},
): ScriptedReply {
  return { kind: 'error', status, errorType, message, headers }
}
