import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import type { Worker } from 'node:worker_threads'
import type { CorpusDocument } from '../load/corpus.ts'
import { ownModuleThread } from './own-module-thread.ts'
import { threadsEnabled } from './threads-switch.ts'
import type { Bm25Options } from '../builtin/bm25-index.ts'
import type { BuiltCorpus } from '../builtin/builtin-system.ts'
import { chunkCorpus, type ChunkOptions } from '../builtin/chunker.ts'

/** What corpus-index-thread-main.ts is sent: how to index, then the chunks' texts in corpus order, then the end. */
export type IndexThreadRequest =
  { kind: 'start'; options: Bm25Options } | { kind: 'chunks'; texts: string[]; headings: string[] } | { kind: 'end' }

/** What it answers at the end: the BM25 index (its terms in id order) and the answerer's term frequencies. */
export interface IndexThreadReply {
  terms: string[]
  postingStart: Int32Array
  postingChunk: Int32Array
  postingWeight: Float64Array
  frequencies: Map<string, number>
}

const THREAD = fileURLToPath(
  new URL(`./corpus-index-thread-main.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url),
)

/** Body characters from which a second thread pays for its start (docs/scaling.md, "Why the code is shaped as it is"). */
const MIN_BODY_CHARS = 4_000_000

/** Chunk characters per message: the thread indexes one batch while this thread cuts the next, and each message's copy is freed once read. */
const BATCH_CHARS = 1_000_000

/** Whether building the corpus on two threads (buildCorpusWithIndexThread) beats building it on this one. */
function worthAnIndexThread(corpus: readonly CorpusDocument[]): boolean {
  if (availableParallelism() < 2 || !threadsEnabled()) return false
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

type IndexThreadOptions = ChunkOptions & { retrieval: Bm25Options }

/** A corpus never built, built on two threads when that pays (buildCorpusWithIndexThread); else null: the caller builds it. */
export async function builtCorpusOnTwoThreads(
  corpus: readonly CorpusDocument[],
  options: IndexThreadOptions,
): Promise<BuiltCorpus | null> {
  return worthAnIndexThread(corpus) ? buildCorpusWithIndexThread(corpus, options) : null
}

/**
 * The built corpus made on two threads: this one chunks and sends the texts as it goes to a worker, which builds the
 * index and term frequencies, the same parts as one thread; the o200k vocabulary stays on this thread alone
 * (docs/scaling.md, "A corpus's first run builds it on two threads").
 */
export async function buildCorpusWithIndexThread(
  corpus: readonly CorpusDocument[],
  options: IndexThreadOptions,
): Promise<BuiltCorpus> {
  const thread = ownModuleThread(THREAD)
  const reply = replyOf(thread)
  const post = (request: IndexThreadRequest) => thread.postMessage(request)
  const { k1, b, delta, possessives, titleWeight, coordination } = options.retrieval
  post({ kind: 'start', options: { k1, b, delta, possessives, titleWeight, coordination } })
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
  const { terms, postingStart, postingChunk, postingWeight, frequencies } = await reply
  void thread.terminate()
  return {
    chunks,
    bm25: { termIds: new Map(terms.map((term, id) => [term, id])), postingStart, postingChunk, postingWeight },
    answererDf: frequencies,
  }
}
