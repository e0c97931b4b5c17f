import pLimit, { type LimitFunction } from 'p-limit'
import { callKey, callParts, type StoredExchange } from './exchange.ts'
import type { DiskCache } from './disk-cache.ts'
import type { ModelCall, ModelResponse, ModelResult } from './model-types.ts'
import { costUsd, priceOf, type PriceTable } from './prices.ts'
import type { RecordingReader, RecordingWriter } from './recording.ts'
import { describeFailure, retryDelay, type RetryPolicy } from './retry-policy.ts'
import type { MessagesTransport } from './sdk-transport.ts'
import { UsageLedger } from './usage-ledger.ts'

/** live: cache, then the API. record: the same, and every exchange saved to a recording. replay: the recording only. */
export type ClientMode = 'live' | 'record' | 'replay'

/** How the client uses the disk cache: read and write (on), write only (refresh), not at all (off). */
export type CacheMode = 'on' | 'off' | 'refresh'

export interface ModelClientOptions {
  mode: ClientMode
  /** The Messages API (live and record); null in replay, which never reaches a network. */
  transport: MessagesTransport | null
  cache: DiskCache | null
  cacheMode: CacheMode
  /** record: where exchanges are saved. */
  recorder?: RecordingWriter
  /** replay: where responses come from. */
  recording?: RecordingReader
  /** How a missing recording is made, for the replay error. */
  howToRecord?: string
  /** At most this many API requests in flight (EVAL_CONCURRENCY). */
  concurrency: number
  retry: RetryPolicy
  /** Per-request timeout (EVAL_TIMEOUT_MS). */
  timeoutMs: number
  prices: PriceTable
  /** Values never to appear in an error message (the API key). */
  secrets?: readonly string[]
  sleep?: (ms: number) => Promise<void>
  random?: () => number
}

/** A model call that failed for good: names the question, the call, the attempts and each failure. */
export class ModelCallError extends Error {
  override name = 'ModelCallError'
  constructor(
    message: string,
    readonly subject: string,
    readonly attempts: number,
  ) {
    super(message)
  }
}

/** Replay met a request the recording does not hold (never a silent fallback to anything else). */
export class ReplayMissError extends Error {
  override name = 'ReplayMissError'
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** Failure descriptions in order, repeats folded: "HTTP 529 overloaded_error: Overloaded (x3), no response within ...". */
function foldFailures(failures: readonly string[]): string {
  const folded: { text: string; count: number }[] = []
  for (const text of failures) {
    const last = folded.at(-1)
    if (last && last.text === text) last.count += 1
    else folded.push({ text, count: 1 })
  }
  return folded.map((f) => (f.count > 1 ? `${f.text} (x${f.count})` : f.text)).join('; ')
}

function hintFor(status: number | null): string {
  if (status === 401 || status === 403) return ' (check ANTHROPIC_API_KEY)'
  if (status === 404) return ' (check the model name: EVAL_GENERATOR_MODEL, EVAL_JUDGE_MODEL)'
  if (status === 400) return ' (the request was rejected as invalid)'
  return ''
}

/**
 * The one model client the generator and every judge go through: a content-addressed disk cache, a
 * concurrency limit on API requests, retries with backoff that honour retry-after, a per-request
 * timeout, usage and cost accounting per call, and record/replay. Identical calls in flight at the
 * same time share one request.
 */
export class ModelClient {
  readonly ledger = new UsageLedger()
  readonly #options: ModelClientOptions
  readonly #limit: LimitFunction
  readonly #inFlight = new Map<string, Promise<ModelResult>>()
  readonly #sleep: (ms: number) => Promise<void>
  readonly #random: () => number
  /** The first call that failed for good: the run is lost, so nothing queued behind it is sent (and paid for). */
  #failure: ModelCallError | null = null

  constructor(options: ModelClientOptions) {
    if (options.mode !== 'replay' && !options.transport) throw new Error(`ModelClient: mode ${options.mode} needs a transport`)
    if (options.mode === 'replay' && !options.recording) throw new Error('ModelClient: replay needs a recording')
    if (options.mode === 'record' && !options.recorder) throw new Error('ModelClient: record needs a recorder')
    this.#options = options
    this.#limit = pLimit(options.concurrency)
    this.#sleep = options.sleep ?? sleepFor
    this.#random = options.random ?? Math.random
  }

  get mode(): ClientMode {
    return this.#options.mode
  }

  /** Sends a call (or answers it from the cache or the recording) and accounts for it. */
  async call(call: ModelCall): Promise<ModelResult> {
    const parts = callParts(call)
    const key = callKey(parts)
    const pending = this.#inFlight.get(key)
    if (pending) {
      // The same request is already on its way: share its response, as a cache hit (or a replay).
      const shared = await pending
      return this.#account(call, { ...shared, source: shared.source === 'recording' ? 'recording' : 'cache', latencyMs: null, retries: 0 })
    }
    const promise = this.#resolve(call, key, parts)
    this.#inFlight.set(key, promise)
    try {
      return this.#account(call, await promise)
    } finally {
      this.#inFlight.delete(key)
    }
  }

  #account(call: ModelCall, result: ModelResult): ModelResult {
    const price = priceOf(this.#options.prices, call.request.model)
    if (!price) throw new ModelCallError(`${call.subject} ${call.purpose}: no price for model ${call.request.model} in the price table`, call.subject, 0)
    const usd = costUsd(price, result.response.usage)
    this.ledger.add({ subject: call.subject, purpose: call.purpose, model: call.request.model, role: call.role, source: result.source, usage: result.response.usage, usd, latencyMs: result.latencyMs, retries: result.retries, scripted: result.scripted })
    return { ...result, usd: result.source === 'api' ? usd : 0 }
  }

  async #resolve(call: ModelCall, key: string, parts: ReturnType<typeof callParts>): Promise<ModelResult> {
    const { mode, cache, cacheMode, recorder, recording } = this.#options
    if (mode === 'replay') {
      const recorded = recording!.get(key)
      if (!recorded) {
        throw new ReplayMissError(
          `replay: no recorded response for ${call.subject} ${call.purpose} (${call.request.model}): ${recording!.explainMiss(call.subject, call.purpose, parts)}; ${this.#options.howToRecord ?? 're-record it'}`,
        )
      }
      return { response: recorded.response, source: 'recording', latencyMs: null, retries: 0, usd: 0, scripted: recorded.scripted }
    }
    const cached = cache && cacheMode === 'on' ? cache.get(key) : null
    if (cached) {
      recorder?.put({ ...cached, subject: call.subject, purpose: call.purpose, role: call.role })
      return { response: cached.response, source: 'cache', latencyMs: null, retries: 0, usd: 0, scripted: cached.scripted }
    }
    const { response, latencyMs, retries, scripted } = await this.#limit(() => {
      if (this.#failure) throw new ModelCallError(`${call.subject}: ${call.purpose} not sent: the run already failed (${this.#failure.message})`, call.subject, 0)
      return this.#send(call)
    })
    const exchange: StoredExchange = { key, subject: call.subject, purpose: call.purpose, role: call.role, parts, response, latencyMs: Math.round(latencyMs), retries, scripted }
    // Written the moment it arrives: a run killed later has already paid for this one.
    if (cache && cacheMode !== 'off') cache.put(exchange, call.request)
    recorder?.put(exchange)
    return { response, source: 'api', latencyMs, retries, usd: 0, scripted }
  }

  /** The attempts of one API call under the retry policy. */
  async #send(call: ModelCall): Promise<{ response: ModelResponse; latencyMs: number; retries: number; scripted: boolean }> {
    const { transport, retry, timeoutMs } = this.#options
    const started = performance.now()
    const failures: string[] = []
    for (let attempt = 0; ; attempt += 1) {
      try {
        const reply = await transport!(call.request, timeoutMs)
        return { response: reply.response, scripted: reply.scripted, latencyMs: performance.now() - started, retries: attempt }
      } catch (error) {
        const failure = describeFailure(error, timeoutMs)
        failures.push(failure.description)
        const attempts = attempt + 1
        const fail = (why: string) => {
          const final = new ModelCallError(
            this.#redact(`${call.subject}: ${call.purpose} (${call.request.model}) failed ${why}: ${foldFailures(failures)}${hintFor(failure.status)}`),
            call.subject,
            attempts,
          )
          this.#failure ??= final
          return final
        }
        if (!failure.retryable) throw fail(`after ${attempts} attempt${attempts === 1 ? '' : 's'} (not retryable)`)
        if (attempt >= retry.maxRetries) throw fail(`after ${attempts} attempts (EVAL_MAX_RETRIES=${retry.maxRetries})`)
        const delay = retryDelay(attempt, retry, failure.retryAfterMs, this.#random)
        if (delay === null) throw fail(`after ${attempts} attempts: the server asked to wait ${Math.round(failure.retryAfterMs ?? 0)} ms, longer than EVAL_RETRY_MAX_MS=${retry.maxDelayMs}`)
        await this.#sleep(delay)
      }
    }
  }

  #redact(text: string): string {
    let out = text
    for (const secret of this.#options.secrets ?? []) if (secret.length >= 8) out = out.split(secret).join('[redacted]')
    return out
  }
}
