import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import type { Worker } from 'node:worker_threads'
import type { CorpusDocument } from '../load/corpus.ts'
import { ownModuleThread } from './own-module-thread.ts'
import type { Bm25Options } from '../builtin/bm25-index.ts'
import type { BuiltCorpus } from '../builtin/builtin-system.ts'
import { termFrequencyCounter } from '../builtin/chunk-term-frequencies.ts'
import { chunkCorpus, type ChunkOptions } from '../builtin/chunker.ts'

/**
 * What corpus-index-thread-main.ts is sent: how to index (and `claims`, shared, when it counts frequencies),
 * then the chunks' texts in corpus order, then the end.
 */
export type IndexThreadRequest =
  | { kind: 'start'; options: Bm25Options; claims: Int32Array | null }
  | { kind: 'chunks'; texts: string[]; headings: string[] }
  | { kind: 'end' }

/**
 * What it answers at the end: the BM25 index (its terms in id order) and, when asked, the answerer's term
 * frequencies over the chunks it counted (the first `counted`; this thread counts the rest).
 */
export interface IndexThreadReply {
  terms: string[]
  postingStart: Int32Array
  postingChunk: Int32Array
  postingWeight: Float64Array
  frequencies: Map<string, number> | null
  counted: number
}

/**
 * The frequencies' two claims, shared: [0] is one past the chunk the worker counts next (it goes up from
 * the first), [1] the chunk this thread counts next (it goes down from the last, once its chunks are cut;
 * NO_CLAIM before). Each side stores its claim, then reads the other's (sequentially consistent): a
 * chunk both claim is counted by neither or one, never both, and this thread counts any left between.
 */
const NO_CLAIM = 0x7fffffff

/** Sums term frequencies counted over disjoint sets of chunks. */
function addFrequencies(into: Map<string, number>, from: ReadonlyMap<string, number>): Map<string, number> {
  for (const [term, chunks] of from) into.set(term, (into.get(term) ?? 0) + chunks)
  return into
}

const THREAD = fileURLToPath(
  new URL(`./corpus-index-thread-main.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url),
)

/**
 * Body characters from which indexing on a second thread pays: the thread loads its few modules (a tenth
 * of a second through jiti in this repository) and every chunk text is copied to it. Indexing is about a
 * third of the time chunking takes, so below a few million characters the saving is smaller than the start.
 */
const MIN_BODY_CHARS = 4_000_000

/** Chunk characters per message: the thread indexes one batch while this thread cuts the next, and each message's copy is freed once read. */
const BATCH_CHARS = 1_000_000

/** Whether building the corpus on two threads (buildCorpusWithIndexThread) beats building it on this one. */
export function worthAnIndexThread(corpus: readonly CorpusDocument[]): boolean {
  if (availableParallelism() < 2) return false
  let chars = 0
  for (const doc of corpus) if ((chars += doc.body.length) >= MIN_BODY_CHARS) return true
  return false
}

/** The thread's one reply; or an Error with the thread's own message (or how it ended without one). */
function replyOf(thread: Worker): Promise<IndexThreadReply> {
  return new Promise((resolve, reject) => {
    let failure: Error | null = null
    thread.once('message', resolve)
    thread.once('error', (error) => (failure = error))
    thread.once('exit', (code) =>
      reject(
        new Error(
          `indexing the corpus on a worker thread failed: ${failure?.message ?? `the thread exited with code ${code} before its index`}`,
        ),
      ),
    )
  })
}

/**
 * The built corpus (builtin-system.ts) of a corpus that was never built, made on two threads: this one cuts
 * the chunks (chunkCorpus) and sends their texts as it goes to a worker thread, which builds the BM25 index
 * (bm25IndexBuilder) and, with `countFrequencies`, the answerer's term frequencies (termFrequencyCounter)
 * from them, in corpus order. The same parts as building them one after the other; the chunks' o200k
 * vocabulary stays on this thread alone (it is 70 MB of a process's memory once loaded).
 */
export async function buildCorpusWithIndexThread(
  corpus: readonly CorpusDocument[],
  options: ChunkOptions & { retrieval: Bm25Options; countFrequencies: boolean },
): Promise<BuiltCorpus> {
  const thread = ownModuleThread(THREAD)
  const reply = replyOf(thread)
  const post = (request: IndexThreadRequest) => thread.postMessage(request)
  const { k1, b, delta, possessives, titleWeight, coordination } = options.retrieval
  const claims = options.countFrequencies ? new Int32Array(new SharedArrayBuffer(8)) : null
  claims?.set([0, NO_CLAIM])
  post({ kind: 'start', options: { k1, b, delta, possessives, titleWeight, coordination }, claims })
  let texts: string[] = []
  let headings: string[] = []
  let chars = 0
  const send = () => {
    post({ kind: 'chunks', texts, headings })
    texts = []
    headings = []
    chars = 0
  }
  let chunks
  try {
    chunks = chunkCorpus(corpus, options, (chunk) => {
      texts.push(chunk.text)
      headings.push(chunk.heading)
      if ((chars += chunk.text.length) >= BATCH_CHARS) send()
    })
  } catch (error) {
    // This thread's failure is the one to report: the worker's work is moot, and its ending must not go unhandled.
    reply.catch(() => {})
    void thread.terminate()
    throw error
  }
  send()
  post({ kind: 'end' })
  // The worker indexes what is left of the chunks meanwhile: this thread takes the frequencies of the last
  // ones off its hands, from the end down, until it meets the worker's claim (3,000 to 8,600 of the
  // 10,000-document benchmark's 90,202 chunks).
  const mine = claims ? termFrequencyCounter() : null
  let from = chunks.length
  if (claims && mine) {
    for (let k = chunks.length - 1; k >= 0; k--) {
      Atomics.store(claims, 1, k)
      if (Atomics.load(claims, 0) > k) break
      mine.add(chunks[k]!.text)
      from = k
    }
  }
  const { terms, postingStart, postingChunk, postingWeight, frequencies, counted } = await reply
  void thread.terminate()
  for (let k = counted; k < from; k++) mine?.add(chunks[k]!.text)
  const answererDf = frequencies && mine ? addFrequencies(frequencies, mine.finish()) : null
  return {
    chunks,
    bm25: { termIds: new Map(terms.map((term, id) => [term, id])), postingStart, postingChunk, postingWeight },
    answererDf,
  }
}
