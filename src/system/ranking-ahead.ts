import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import type { Worker } from 'node:worker_threads'
import { ownModuleThread } from '../support/import-module.ts'
import { sharedFloat64Array, sharedInt32Array } from '../support/shared-arrays.ts'
import type { Bm25Index, Bm25Options } from './bm25-index.ts'
import type { Bm25Ranker } from './bm25-ranker.ts'

/**
 * What ranking-ahead-main.ts is given: the ranker's parts (the index's arrays in shared memory, so read in
 * place) and the run's queries, and where to put each one's ranking: `state[i]` 0 while query i is free, 1
 * once a thread took it, 2 once its `counts[i]` ids and scores are in `ids`/`scores` from i x depth and the
 * time it took in `ms[i]`.
 */
export interface RankingJob {
  ordinals: Float64Array
  options: Bm25Options
  index: Bm25Index
  queries: string[]
  depth: number
  state: Int32Array
  counts: Int32Array
  ids: Int32Array
  scores: Float64Array
  ms: Float64Array
}

/** A query's ranking: chunk ids best first, their scores, and how long ranking took. */
export interface Ranking {
  ids: number[]
  scores: number[]
  ms: number
}

const THREAD = fileURLToPath(new URL(`./ranking-ahead-main.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url))

/** Queries x chunks below which the helper's start costs more than the rankings it would take (the 10,000-question benchmark is 7 x 10^8). */
const MIN_WORK = 50_000_000

/** How long a query the helper took may go unfinished before this thread ranks it itself: the helper ranks one in well under a millisecond, so only a helper that died waits this long. */
const STALLED_MS = 1000

/** Ranks one query of the job (takes nothing, writes nothing): what either thread does with a query it took. */
export function rankQuery(ranker: Bm25Ranker, job: RankingJob, i: number): Ranking {
  const started = performance.now()
  const { ids, scores } = ranker.rank(job.queries[i]!, job.depth)
  return { ids, scores, ms: performance.now() - started }
}

/**
 * The rankings of a run's questions, made ahead of the questions by a helper thread while this one packs and
 * answers the ones before: both take the next free query (this one when a question needs its ranking and
 * the helper has not taken it yet), so neither waits for the other except on a query the helper is in the
 * middle of. Each ranking is the one Bm25Ranker gives on either thread, to the bit.
 */
export class RankingAhead {
  readonly #ranker: Bm25Ranker
  readonly #job: RankingJob
  readonly #position = new Map<string, number>()
  readonly #helper: Worker

  constructor(ranker: Bm25Ranker, questions: readonly { id: string; question: string }[], depth: number) {
    this.#ranker = ranker
    const n = questions.length
    const slots = n * Math.max(0, Math.trunc(depth) || 0)
    this.#job = {
      ordinals: ranker.ordinals,
      options: ranker.options,
      index: ranker.index,
      queries: questions.map((q) => q.question),
      depth,
      state: sharedInt32Array(n),
      counts: sharedInt32Array(n),
      ids: sharedInt32Array(slots),
      scores: sharedFloat64Array(slots),
      ms: sharedFloat64Array(n),
    }
    questions.forEach((q, i) => this.#position.set(q.id, i))
    this.#helper = ownModuleThread(THREAD)
    // It ends by itself once no query is free; an error in it leaves its queries to this thread.
    this.#helper.unref()
    this.#helper.on('error', () => {})
    this.#helper.postMessage(this.#job)
  }

  /** Whether ranking ahead pays for `questions` over `chunks` on this machine. */
  static worthIt(questions: number, chunks: number): boolean {
    return questions * chunks >= MIN_WORK && availableParallelism() >= 2
  }

  /** The ranking of a question of the run (null for one it was not given, or given with another text). */
  ranking(question: { id: string; question: string }): Ranking | null {
    const i = this.#position.get(question.id)
    const job = this.#job
    if (i === undefined || job.queries[i] !== question.question) return null
    if (Atomics.compareExchange(job.state, i, 0, 1) === 0) {
      const ranking = rankQuery(this.#ranker, job, i)
      Atomics.store(job.state, i, 2)
      return ranking
    }
    while (Atomics.load(job.state, i) !== 2) {
      if (Atomics.wait(job.state, i, 1, STALLED_MS) === 'timed-out') return rankQuery(this.#ranker, job, i)
    }
    const from = i * job.depth
    const count = job.counts[i]!
    return { ids: Array.from(job.ids.subarray(from, from + count)), scores: Array.from(job.scores.subarray(from, from + count)), ms: job.ms[i]! }
  }

  /** Stops the helper (the run is over, or another set of questions replaces this one). */
  stop(): void {
    void this.#helper.terminate()
  }
}
