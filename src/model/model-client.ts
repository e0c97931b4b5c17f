import pLimit, { type LimitFunction } from 'p-limit'
import { BatchQueue, type BatchLog } from './batch-queue.ts'
import type { BatchTransport } from './batch-transport.ts'
import { callKey, callParts, type StoredExchange } from './exchange.ts'
import type { ResponseCache } from './disk-cache.ts'
import type { EvalConfig } from '../contract/eval-config-schema.ts'
import type { ModelRole } from '../contract/model-usage-schema.ts'
import type { ModelCall, ModelResponse, ModelResult, ModelUsage } from './model-types.ts'
import { costUsd, priceOf, promptCacheSavingsUsd, type ModelPrice, type PriceTable } from './prices.ts'
import type { RecordingReader, RecordingWriter } from './recording.ts'
import { worstCaseUsd } from './request-cost.ts'
import { retryDelay, type RetryPolicy } from '../common/backoff.ts'
import { describeFailure } from './retry-policy.ts'
import type { MessagesTransport } from './sdk-transport.ts'
import { BudgetExceededError, SpendingCap, type Reservation } from './spending-cap.ts'
import { UsageLedger } from './usage-ledger.ts'
import { BatchItemError, ModelCallError, ReplayMissError, RunStoppedError } from './model-errors.ts'

/** live: cache, then the API. record: the same, and every exchange saved to a recording. replay: the recording only. */
export type ModelMode = 'live' | 'record' | 'replay'

export interface ModelClientOptions {
  mode: ModelMode
  /** The Messages API (live and record); null in replay, which never reaches a network. */
  transport: MessagesTransport | null
  cache: ResponseCache | null
  /** How the client uses the disk cache: read and write (on), write only (refresh), not at all (off). */
  cacheMode: EvalConfig['cache']
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
  /** EVAL_MAX_USD: no request is sent whose worst case could take the run's spending over it; null or absent: no cap. */
  maxUsd?: number | null
  /** EVAL_BATCH=1: the calls of these roles that miss the cache go through the Message Batches API, at the table's batchFactor. */
  batch?: BatchSettings | null
  /** Progress lines for the terminal (batches submitted, polled, ended; items sent again). */
  progress?: (line: string) => void
  /** Sees every call with its result as it is accounted (the cost estimate's dry run collects them). */
  observe?: (call: ModelCall, result: ModelResult) => void
}

export interface BatchSettings {
  roles: readonly ModelRole[]
  transport: BatchTransport
  /** Wait between status polls (EVAL_BATCH_POLL_MS). */
  pollMs: number
}

/** Batch item errors worth a normal call (server failed or busy); any other error the same request would get again. */
export const RESENDABLE_BATCH_ERRORS: ReadonlySet<string> = new Set([
  'api_error',
  'overloaded_error',
  'rate_limit_error',
  'timeout_error',
  'malformed_message',
  'missing_result',
])

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms))

/** A response as it came from the API (a normal call or a batch item). */
interface Sent {
  response: ModelResponse
  latencyMs: number
  retries: number
  scripted: boolean
  batch: boolean
}

/** A response this run did not pay for (a cache hit, a replay, a share of a request in flight): no latency, no retries. */
function stored(from: { response: ModelResponse; scripted: boolean }, source: 'cache' | 'recording'): ModelResult {
  return { response: from.response, source, latencyMs: null, retries: 0, usd: 0, scripted: from.scripted, batch: false }
}

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
 * The one model client the generator and every judge go through: cache, concurrency limit, retries, timeout, cost
 * accounting, record/replay, the EVAL_MAX_USD cap and batching. Identical calls in flight share one request.
 */
export class ModelClient {
  readonly ledger = new UsageLedger()
  readonly #options: ModelClientOptions
  readonly #limit: LimitFunction
  readonly #inFlight = new Map<string, Promise<ModelResult>>()
  /** Every call not yet settled: drain() waits for them, so what is paid for reaches the cache. */
  readonly #pending = new Set<Promise<ModelResult>>()
  readonly #sleep: (ms: number) => Promise<void>
  readonly #random: () => number
  readonly #cap: SpendingCap
  readonly #batches: BatchQueue | null
  readonly #batchRoles: ReadonlySet<ModelRole>
  /** The first call that failed for good (or the cap, or a stop): the run is lost, so nothing queued behind it is sent (and paid for). */
  #failure: Error | null = null
  /** Set by stopAndDrain: besides what #failure stops, no call in flight sends a retry. */
  #stopped: RunStoppedError | null = null

  constructor(options: ModelClientOptions) {
    if (options.mode !== 'replay' && !options.transport) throw new Error(`ModelClient: mode ${options.mode} needs a transport`)
    if (options.mode === 'replay' && !options.recording) throw new Error('ModelClient: replay needs a recording')
    if (options.mode === 'record' && !options.recorder) throw new Error('ModelClient: record needs a recorder')
    this.#options = options
    this.#limit = pLimit(options.concurrency)
    this.#sleep = options.sleep ?? sleepFor
    this.#random = options.random ?? Math.random
    this.#cap = new SpendingCap(options.maxUsd ?? null, this.#resumeHint())
    const batch = options.mode === 'replay' ? null : (options.batch ?? null)
    this.#batchRoles = new Set(batch?.roles ?? [])
    this.#batches = batch
      ? new BatchQueue({
          transport: batch.transport,
          pollMs: batch.pollMs,
          timeoutMs: options.timeoutMs,
          retry: options.retry,
          sleep: this.#sleep,
          random: this.#random,
          admit: (call) => {
            if (this.#failure) throw this.#notSent(call)
            return this.#reserve(call, this.#options.prices.batchFactor, false)
          },
          roomMayChange: () => this.#cap.nextRelease(),
          release: (reservation) => this.#cap.release(reservation),
          fail: (call, message) => {
            const error = new ModelCallError(
              this.#redact(`${call.subject}: ${call.purpose} (${call.request.model}) failed: ${message}`),
              call.subject,
              1,
            )
            this.#failure ??= error
            return error
          },
          progress: (line) => this.#progress(line),
        })
      : null
  }

  /** USD of the API responses received so far in this run (what EVAL_MAX_USD is checked against, with calls in flight). */
  get spentUsd(): number {
    return this.#cap.spent
  }

  /** API responses paid for so far in this run. */
  get paidCalls(): number {
    return this.#cap.paidCalls
  }

  /** The run's Message Batches (EVAL_BATCH=1), in submission order. */
  get batches(): readonly BatchLog[] {
    return this.#batches?.log ?? []
  }

  /** True when this role's calls go through the Message Batches API. */
  isBatched(role: ModelRole): boolean {
    return this.#batches !== null && this.#batchRoles.has(role)
  }

  /** Waits until every call made so far has settled; a failing run calls it first, so nothing paid for is lost on exit. */
  async drain(): Promise<void> {
    while (this.#pending.size > 0) await Promise.allSettled([...this.#pending])
    await this.#batches?.idle()
  }

  /**
   * Sends nothing more (queued calls are refused with a RunStoppedError cause; calls in flight send no retry) and waits
   * until what is already paid for is cached and recorded, batches included. Cache hits are still answered. Idempotent.
   */
  async stopAndDrain(reason = 'the run was stopped'): Promise<void> {
    const stop = new RunStoppedError(reason)
    this.#stopped ??= stop
    this.#failure ??= stop
    await this.drain()
  }

  /** Sends a call (or answers it from the cache or the recording) and accounts for it. */
  async call(call: ModelCall): Promise<ModelResult> {
    const parts = callParts(call)
    const key = callKey(parts)
    const pending = this.#inFlight.get(key)
    if (pending) {
      // The same request is already on its way: share its response, as a cache hit (or a replay).
      const shared = await pending
      return this.#account(call, stored(shared, shared.source === 'recording' ? 'recording' : 'cache'))
    }
    const promise = this.#resolve(call, key, parts)
    this.#inFlight.set(key, promise)
    this.#pending.add(promise)
    try {
      return this.#account(call, await promise)
    } finally {
      this.#inFlight.delete(key)
      this.#pending.delete(promise)
    }
  }

  #price(call: ModelCall): ModelPrice {
    const price = priceOf(this.#options.prices, call.request.model)
    if (!price)
      throw new ModelCallError(
        `${call.subject} ${call.purpose}: no price for model ${call.request.model} in the price table`,
        call.subject,
        0,
      )
    return price
  }

  #account(call: ModelCall, result: ModelResult): ModelResult {
    const price = this.#price(call)
    // A batch answer costs the batch price; a cache hit of a batched role would have, had it been asked in this run.
    const factor = result.batch || (result.source !== 'api' && this.isBatched(call.role)) ? this.#options.prices.batchFactor : 1
    const usage = result.response.usage
    const usd = costUsd(price, usage, factor)
    this.ledger.add({
      subject: call.subject,
      purpose: call.purpose,
      model: call.request.model,
      role: call.role,
      source: result.source,
      usage,
      usd,
      batch: result.batch,
      promptCacheSavedUsd: result.source === 'api' ? promptCacheSavingsUsd(price, usage, factor) : 0,
      batchSavedUsd: result.batch ? costUsd(price, usage) - usd : 0,
      latencyMs: result.latencyMs,
      retries: result.retries,
      scripted: result.scripted,
    })
    const accounted = { ...result, usd: result.source === 'api' ? usd : 0 }
    this.#options.observe?.(call, accounted)
    return accounted
  }

  /** What a rerun finds after the cap stopped this one, for the error message. */
  #resumeHint(): string {
    const { cache, cacheMode } = this.#options
    if (!cache || cacheMode === 'off') return 'Nothing is cached (EVAL_CACHE=off): a rerun pays again for every call'
    return (
      `Every response paid for is in the cache (${cache.dir}): ` +
      `a rerun${cacheMode === 'refresh' ? ' with EVAL_CACHE=on' : ''} resumes from it and pays only for the rest`
    )
  }

  /**
   * Holds a call's worst case against the cap. With `wait` it waits for calls in flight to make room; without, null
   * (a batch item waits for the next batch). The cap reached with nothing in flight stops the run.
   */
  #reserve(call: ModelCall, factor: number, wait: true): Promise<Reservation>
  #reserve(call: ModelCall, factor: number, wait: false): Reservation | null
  #reserve(call: ModelCall, factor: number, wait: boolean): Reservation | null | Promise<Reservation> {
    const what = `${call.subject} ${call.purpose} (${call.request.model})`
    const worst = worstCaseUsd(this.#price(call), call.request, factor)
    const stop = (error: unknown): never => {
      if (error instanceof BudgetExceededError) this.#failure ??= error
      throw error
    }
    if (wait) return this.#cap.reserveWhenRoom(what, worst).catch(stop)
    try {
      return this.#cap.tryReserve(what, worst)
    } catch (error) {
      return stop(error)
    }
  }

  #notSent(call: ModelCall): ModelCallError {
    const failure = this.#failure!
    const why = failure instanceof RunStoppedError ? 'the run was stopped' : 'the run already failed'
    return new ModelCallError(`${call.subject}: ${call.purpose} not sent: ${why} (${failure.message})`, call.subject, 0, {
      cause: failure,
    })
  }

  #progress(line: string): void {
    this.#options.progress?.(this.#redact(line))
  }

  #usd(call: ModelCall, usage: ModelUsage, factor: number): number {
    return costUsd(this.#price(call), usage, factor)
  }

  async #resolve(call: ModelCall, key: string, parts: ReturnType<typeof callParts>): Promise<ModelResult> {
    const { mode, cache, cacheMode, recorder, recording } = this.#options
    if (mode === 'replay') {
      const recorded = recording!.get(key)
      if (!recorded) {
        throw new ReplayMissError(
          `replay: no recorded response for ${call.subject} ${call.purpose} ` +
            `(${call.request.model}): ${recording!.explainMiss(call.subject, call.purpose, parts)}; ` +
            `${this.#options.howToRecord ?? 're-record it'}`,
        )
      }
      return stored(recorded, 'recording')
    }
    const cacheable = call.cacheable ?? (() => true)
    const cached = cache && cacheMode === 'on' ? cache.get(key) : null
    if (cached && cacheable(cached.response)) {
      recorder?.put({ ...cached, subject: call.subject, purpose: call.purpose, role: call.role })
      return stored(cached, 'cache')
    }
    const sent = this.isBatched(call.role) ? await this.#viaBatch(call, key) : await this.#viaApi(call)
    const { response, latencyMs, retries, scripted, batch } = sent
    const exchange: StoredExchange = {
      key,
      subject: call.subject,
      purpose: call.purpose,
      role: call.role,
      parts,
      response,
      latencyMs: Math.round(latencyMs),
      retries,
      scripted,
    }
    // Written the moment it arrives: a run killed later has already paid for this one.
    if (cache && cacheMode !== 'off' && cacheable(response)) cache.put(exchange, call.request)
    recorder?.put(exchange)
    // A batch item has no latency of its own (the batch's wall time is in run.batches).
    return { response, source: 'api', latencyMs: batch ? null : latencyMs, retries, usd: 0, scripted, batch }
  }

  /** One call through the Messages API: within the concurrency limit, under the cap, with retries. */
  #viaApi(call: ModelCall): Promise<Sent> {
    return this.#limit(async () => {
      if (this.#failure) throw this.#notSent(call)
      const reservation = await this.#reserve(call, 1, true)
      if (this.#failure) {
        // It waited for room while another call stopped the run.
        this.#cap.release(reservation)
        throw this.#notSent(call)
      }
      try {
        const sent = await this.#send(call)
        this.#cap.settle(reservation, this.#usd(call, sent.response.usage, 1))
        return { ...sent, batch: false }
      } catch (error) {
        this.#cap.release(reservation)
        throw error
      }
    })
  }

  /**
   * Expired or server-side errors are resent as normal calls (the request is fine); other errors and cancels (only a
   * person cancels) become a BatchItemError, a judge error, since a resend would fare the same or undo the cancel.
   */
  async #viaBatch(call: ModelCall, key: string): Promise<Sent> {
    const { result, reservation, scripted, wallMs, log } = await this.#batches!.enqueue(call, key)
    const factor = this.#options.prices.batchFactor
    if (result.type === 'succeeded') {
      this.#cap.settle(reservation, this.#usd(call, result.response.usage, factor))
      return { response: result.response, latencyMs: wallMs, retries: 0, scripted, batch: true }
    }
    this.#cap.release(reservation)
    const what = result.type === 'errored' ? `errored (${result.errorType}: ${result.message})` : result.type
    if (result.type === 'canceled') {
      log.failed += 1
      this.#progress(
        `${call.subject} ${call.purpose}: batch ${log.id} item canceled; not sent again (someone canceled the batch)`,
      )
      throw new BatchItemError(`batch ${log.id} item canceled; not sent again as a normal call, since someone canceled the batch`)
    }
    if (result.type === 'errored' && !RESENDABLE_BATCH_ERRORS.has(result.errorType)) {
      log.failed += 1
      this.#progress(
        `${call.subject} ${call.purpose}: batch ${log.id} item ${what}; not sent again (the same request would be refused again)`,
      )
      throw new BatchItemError(
        this.#redact(`batch ${log.id} item ${what}; not sent again as a normal call, which would send the same request`),
      )
    }
    log.resent += 1
    this.#progress(`${call.subject} ${call.purpose}: batch ${log.id} item ${what}; sending it as a normal call (full price)`)
    return this.#viaApi(call)
  }

  /** The attempts of one API call under the retry policy. */
  async #send(call: ModelCall): Promise<Omit<Sent, 'batch'>> {
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
            this.#redact(
              `${call.subject}: ${call.purpose} (${call.request.model}) failed ${why}: ${foldFailures(failures)}${hintFor(failure.status)}`,
            ),
            call.subject,
            attempts,
          )
          this.#failure ??= final
          return final
        }
        // Stopped (now or during the wait below): a retry is a new request, so it is not sent.
        const stopped = () =>
          this.#stopped
            ? fail(`after ${attempts} attempt${attempts === 1 ? '' : 's'} (not retried: ${this.#stopped.message})`)
            : null
        const stoppedNow = stopped()
        if (stoppedNow) throw stoppedNow
        if (!failure.retryable) throw fail(`after ${attempts} attempt${attempts === 1 ? '' : 's'} (not retryable)`)
        if (attempt >= retry.maxRetries) throw fail(`after ${attempts} attempts (EVAL_MAX_RETRIES=${retry.maxRetries})`)
        const delay = retryDelay(attempt, retry, failure.retryAfterMs, this.#random)
        if (delay === null)
          throw fail(
            `after ${attempts} attempts: the server asked to wait ${Math.round(failure.retryAfterMs ?? 0)} ms, ` +
              `longer than retryMaxMs=${retry.maxDelayMs}`,
          )
        await this.#sleep(delay)
        const stoppedWhileWaiting = stopped()
        if (stoppedWhileWaiting) throw stoppedWhileWaiting
      }
    }
  }

  #redact(text: string): string {
    let out = text
    for (const secret of this.#options.secrets ?? []) if (secret.length >= 8) out = out.split(secret).join('[redacted]')
    return out
  }
}
