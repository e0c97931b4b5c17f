import type { RunInfo } from '../contract/report-schema.ts'
import type { BatchItemResult, BatchStatus, BatchTransport } from './batch-transport.ts'
import type { ModelCall } from './model-types.ts'
import { retryDelay, type RetryPolicy } from '../common/backoff.ts'
import { describeFailure } from './retry-policy.ts'
import type { Reservation } from './spending-cap.ts'
import { formatUsd } from './spending-cap.ts'

/** One Message Batch of the run, for the report (run.batches) and the terminal. */
export type BatchLog = RunInfo['batches'][number]

/** What the queue hands back for one call once its batch has ended. */
export interface BatchOutcome {
  result: BatchItemResult
  reservation: Reservation
  scripted: boolean
  wallMs: number
  log: BatchLog
}

export interface BatchQueueOptions {
  transport: BatchTransport
  /** Wait between status polls (EVAL_BATCH_POLL_MS). */
  pollMs: number
  /** Per-request timeout of the batch endpoints (EVAL_TIMEOUT_MS). */
  timeoutMs: number
  /** Retries of a failed create / retrieve / results request (the client's policy). */
  retry: RetryPolicy
  sleep: (ms: number) => Promise<void>
  random: () => number
  /** Reserves a call's worst case; null when it may fit once calls in flight land (next batch); throws when it never can. */
  admit: (call: ModelCall) => Reservation | null
  /** Resolves when room under the cap may have changed (a reservation was given back). */
  roomMayChange: () => Promise<void>
  /** Gives a reservation back (the batch could not be submitted). */
  release: (reservation: Reservation) => void
  /** The error a call gets when its batch cannot be submitted, polled or read (it fails the run). */
  fail: (call: ModelCall, message: string) => Error
  progress: (line: string) => void
}

interface Item {
  call: ModelCall
  key: string
  resolve: (outcome: BatchOutcome) => void
  reject: (error: unknown) => void
}

function elapsed(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`
  const seconds = Math.round(ms / 1000)
  if (seconds < 60) return ms < 10_000 ? `${(ms / 1000).toFixed(1)} s` : `${seconds} s`
  const minutes = Math.floor(seconds / 60)
  return minutes < 60 ? `${minutes} min ${seconds % 60} s` : `${Math.floor(minutes / 60)} h ${minutes % 60} min`
}

function describeCounts(status: BatchStatus): string {
  const { processing, succeeded, errored, expired, canceled } = status.counts
  return (
    `${processing} processing, ${succeeded} succeeded, ${errored} errored, ${expired} ` +
    `expired${canceled > 0 ? `, ${canceled} canceled` : ''}`
  )
}

/**
 * EVAL_BATCH=1: cache misses of the batched role are queued and submitted as one batch once no call was queued for a
 * whole event-loop turn (all the judges can ask without an answer); answers that depend on answers form the next batch.
 */
export class BatchQueue {
  readonly log: BatchLog[] = []
  readonly #options: BatchQueueOptions
  #queue: Item[] = []
  /** Items that did not fit under the cap beside what is in flight: queued again when room may have changed. */
  #deferred: Item[] = []
  #armed = false
  #seen = -1
  readonly #running = new Set<Promise<void>>()

  constructor(options: BatchQueueOptions) {
    this.#options = options
  }

  /** Queues a call for the next batch; resolves when that batch has ended. */
  enqueue(call: ModelCall, key: string): Promise<BatchOutcome> {
    return new Promise<BatchOutcome>((resolve, reject) => {
      this.#queue.push({ call, key, resolve, reject })
      this.#arm()
    })
  }

  /** Resolves once nothing is queued and no batch is in flight (their results handed back). */
  async idle(): Promise<void> {
    for (;;) {
      if (this.#queue.length > 0) await new Promise<void>((resolve) => setImmediate(resolve))
      else if (this.#running.size > 0) await Promise.allSettled([...this.#running])
      else if (this.#deferred.length > 0) await this.#options.roomMayChange()
      else return
    }
  }

  #arm(): void {
    if (this.#armed) return
    this.#armed = true
    setImmediate(() => {
      this.#armed = false
      // Still growing: callers are still asking; wait another turn so the batch takes them all.
      if (this.#queue.length !== this.#seen) {
        this.#seen = this.#queue.length
        this.#arm()
        return
      }
      this.#seen = -1
      this.#flush()
    })
  }

  #flush(): void {
    const admitted: (Item & { reservation: Reservation })[] = []
    const queued = this.#queue.splice(0)
    for (const [index, item] of queued.entries()) {
      let reservation: Reservation | null
      try {
        reservation = this.#options.admit(item.call)
      } catch (error) {
        item.reject(error)
        continue
      }
      if (reservation === null) {
        // Over the cap beside what is in flight: this one and the rest wait for room, in order, for the next batch.
        this.#defer(queued.slice(index))
        break
      }
      admitted.push({ ...item, reservation })
    }
    if (admitted.length === 0) return
    const run: Promise<void> = this.#run(admitted).finally(() => this.#running.delete(run))
    this.#running.add(run)
  }

  #defer(items: Item[]): void {
    const waiting = this.#deferred.length > 0
    this.#deferred.push(...items)
    if (waiting) return
    void this.#options.roomMayChange().then(() => {
      this.#queue.push(...this.#deferred.splice(0))
      this.#arm()
    })
  }

  async #run(items: (Item & { reservation: Reservation })[]): Promise<void> {
    const { transport, timeoutMs, pollMs, progress } = this.#options
    const started = performance.now()
    const roles = [...new Set(items.map((i) => i.call.role))].join(' and ')
    const worst = items.reduce((sum, i) => sum + i.reservation.usd, 0)
    let id = '(not created)'
    try {
      const created = await this.#attempts('create a batch', () =>
        transport.create(
          items.map((i) => ({ customId: i.key, request: i.call.request })),
          timeoutMs,
        ),
      )
      id = created.status.id
      progress(
        `batch ${id}: ${items.length} ${roles} request(s) submitted to the Message Batches API (half price; ` +
          `worst case ${formatUsd(worst)}); polling every ${elapsed(pollMs)}`,
      )
      let status = created.status
      let polls = 0
      while (status.status !== 'ended') {
        await this.#options.sleep(pollMs)
        status = await this.#attempts(`poll batch ${id}`, () => transport.retrieve(id, timeoutMs))
        polls += 1
        if (status.status !== 'ended')
          progress(
            `batch ${id}: ${status.status.replace('_', ' ')} · ${describeCounts(status)} · ${elapsed(performance.now() - started)}`,
          )
      }
      const results = await this.#attempts(`read the results of batch ${id}`, () => transport.results(id, timeoutMs))
      const wallMs = performance.now() - started
      const byId = new Map(results.map((r) => [r.customId, r]))
      const count = (type: BatchItemResult['type']) => items.filter((i) => byId.get(i.key)?.type === type).length
      const log: BatchLog = {
        id,
        requests: items.length,
        succeeded: count('succeeded'),
        errored: items.length - count('succeeded') - count('expired') - count('canceled'),
        expired: count('expired'),
        canceled: count('canceled'),
        resent: 0,
        failed: 0,
        polls,
        wallMs: Math.round(wallMs),
      }
      this.log.push(log)
      progress(
        `batch ${id}: ended after ${elapsed(wallMs)}: ${log.succeeded} succeeded, ${log.errored} ` +
          `errored, ${log.expired} expired${log.canceled > 0 ? `, ${log.canceled} canceled` : ''}`,
      )
      for (const item of items) {
        const result: BatchItemResult = byId.get(item.key) ?? {
          customId: item.key,
          type: 'errored',
          errorType: 'missing_result',
          message: 'the batch results hold no line for this request',
        }
        item.resolve({ result, reservation: item.reservation, scripted: created.scripted, wallMs, log })
      }
    } catch (error) {
      const message = `Message Batches API (batch ${id}): ${(error as Error).message}`
      for (const item of items) {
        this.#options.release(item.reservation)
        item.reject(this.#options.fail(item.call, message))
      }
    }
  }

  /** One batch endpoint request under the retry policy; the final error names the attempts and each failure. */
  async #attempts<T>(what: string, send: () => Promise<T>): Promise<T> {
    const { retry, timeoutMs } = this.#options
    const failures: string[] = []
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await send()
      } catch (error) {
        const failure = describeFailure(error, timeoutMs)
        failures.push(failure.description)
        const delay =
          failure.retryable && attempt < retry.maxRetries
            ? retryDelay(attempt, retry, failure.retryAfterMs, this.#options.random)
            : null
        if (delay === null)
          throw new Error(`could not ${what} after ${attempt + 1} attempt(s): ${failures.join('; ')}`, { cause: error })
        await this.#options.sleep(delay)
      }
    }
  }
}
