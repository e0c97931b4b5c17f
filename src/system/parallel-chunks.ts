import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import type { Worker } from 'node:worker_threads'
import { ownModuleThread } from '../support/import-module.ts'
import { pieceTokenCounts } from '../support/tokenizer.ts'
import { addDocumentFrequencies, chunkDocumentFrequencies } from './chunk-document-frequencies.ts'
import { chunkDocument, type Chunk, type ChunkedDocument, type ChunkOptions } from './chunker.ts'

/** What chunk-thread-main.ts receives: its documents, and the piece token counts known so far (it need not count them again). */
export interface ChunkThreadInput {
  documents: ChunkedDocument[]
  options: ChunkOptions
  countFrequencies: boolean
  pieceTokens: ReadonlyMap<string, number>
}

/** What it sends after all its chunks: their document frequencies when asked, and the piece token counts it made. */
interface ChunkThreadEnd {
  frequencies: Map<string, number> | null
  pieceTokens: Map<string, number>
}

/** Each of its messages: its next chunks (ordinals from 0 over all its chunks), and with the last, its end. */
export interface ChunkThreadMessage {
  chunks: Chunk[]
  last: ChunkThreadEnd | null
}

/** A corpus's chunks (chunkCorpus) and, when counted, their document frequencies (chunkDocumentFrequencies). */
export interface CorpusChunks {
  chunks: Chunk[]
  frequencies: Map<string, number> | null
}

const THREAD = fileURLToPath(new URL(`./chunk-thread-main.${import.meta.url.endsWith('.ts') ? 'ts' : 'js'}`, import.meta.url))

/**
 * Body characters below which a second thread does not pay: it must load the chunker and the o200k
 * vocabulary (about 0.4 s) before it chunks anything, and two threads on two cores slow each other down.
 * Measured on the synthetic corpus (about 2,850 characters a document; chunks and their document
 * frequencies): a loss at 2.9 M characters (0.8 -> 1.0 s), even at 5.7 M (1.3 s), a gain at 11.4 M
 * (2.4 -> 1.9 s) and at 28.5 M (5.3 -> 3.7 s).
 */
const MIN_BODY_CHARS = 6_000_000

/**
 * Body characters the current thread chunks while the worker starts: its share is larger by these, so
 * both finish together.
 */
const HEAD_START_CHARS = 1_000_000

/** Body characters this thread chunks between two looks at the worker's batches (chunk-thread-main.ts: reading one frees its buffer). */
const SLICE_CHARS = 1_000_000

const bodyChars = (documents: readonly ChunkedDocument[]) => documents.reduce((sum, doc) => sum + doc.body.length, 0)

/** Whether chunking the corpus on two threads (chunkCorpusOnTwoThreads) beats chunking it on this one. */
export function worthASecondThread(corpus: readonly ChunkedDocument[]): boolean {
  return availableParallelism() >= 2 && bodyChars(corpus) >= MIN_BODY_CHARS
}

/**
 * How many documents, from the first, the current thread chunks: about half the body characters plus its
 * head start, leaving at least the last document to the worker.
 */
function ownShare(corpus: readonly ChunkedDocument[]): number {
  const target = (bodyChars(corpus) + HEAD_START_CHARS) / 2
  let chars = 0
  let count = 0
  while (count < corpus.length - 1 && chars + corpus[count]!.body.length <= target) chars += corpus[count++]!.body.length
  return count
}

/** The thread's chunks in order and its end; or an Error with the thread's own message (or how it ended without one). */
function threadChunks(thread: Worker, which: string): Promise<{ chunks: Chunk[]; end: ChunkThreadEnd }> {
  return new Promise((resolve, reject) => {
    const chunks: Chunk[] = []
    let end: ChunkThreadEnd | null = null
    let failure: Error | null = null
    thread.on('message', (message: ChunkThreadMessage) => {
      for (const chunk of message.chunks) chunks.push(chunk)
      end = message.last
    })
    thread.once('error', (error) => (failure = error))
    thread.once('exit', (code) => {
      if (end) return resolve({ chunks, end })
      const reason = (failure as Error | null)?.message ?? `the thread exited with code ${code} before its last chunks`
      reject(new Error(`chunking ${which} on a worker thread failed: ${reason}`))
    })
  })
}

/** chunkCorpus(documents, options), looking at the messages that came in after every SLICE_CHARS body characters. */
async function chunkCorpusYielding(documents: readonly ChunkedDocument[], options: ChunkOptions): Promise<Chunk[]> {
  const chunks: Chunk[] = []
  let chars = 0
  for (const doc of documents) {
    chunks.push(...chunkDocument(doc, options, chunks.length))
    chars += doc.body.length
    if (chars >= SLICE_CHARS) {
      chars = 0
      await new Promise((resolve) => setImmediate(resolve))
    }
  }
  return chunks
}

/**
 * chunkCorpus(corpus, options), and with `countFrequencies` chunkDocumentFrequencies of its chunks,
 * computed on two threads: this one takes the first documents, one worker thread the rest (split by
 * body characters). The same chunks in the same order (the worker's ordinals re-based), and the same
 * frequencies (summed: each thread counts its own chunks). A document the worker cannot chunk rejects
 * with the worker's message. The piece token counts the worker made are added to this thread's.
 */
export async function chunkCorpusOnTwoThreads(corpus: readonly ChunkedDocument[], options: ChunkOptions, countFrequencies: boolean): Promise<CorpusChunks> {
  if (corpus.length === 0) return { chunks: [], frequencies: countFrequencies ? new Map() : null }
  const split = ownShare(corpus)
  const rest = corpus.slice(split)
  const which = rest.length === 1 ? `document ${rest[0]!.id}` : `documents ${rest[0]!.id} to ${rest.at(-1)!.id}`
  const thread = ownModuleThread(THREAD, {
    documents: rest.map(({ id, title, body }) => ({ id, title, body })),
    options: { chunkTokens: options.chunkTokens, chunkOverlap: options.chunkOverlap },
    countFrequencies,
    pieceTokens: pieceTokenCounts(),
  } satisfies ChunkThreadInput)
  const theirs = threadChunks(thread, which)
  let chunks: Chunk[]
  let frequencies: Map<string, number> | null
  try {
    chunks = await chunkCorpusYielding(corpus.slice(0, split), options)
    frequencies = countFrequencies ? chunkDocumentFrequencies(chunks) : null
  } catch (error) {
    // This thread's failure is the one to report: the worker's work is moot, and its ending must not go unhandled.
    theirs.catch(() => {})
    void thread.terminate()
    throw error
  }
  const { chunks: other, end } = await theirs
  const offset = chunks.length
  for (const chunk of other) {
    chunk.ordinal += offset
    chunks.push(chunk)
  }
  if (frequencies) addDocumentFrequencies(frequencies, end.frequencies!)
  const known = pieceTokenCounts()
  for (const [piece, tokens] of end.pieceTokens) if (!known.has(piece)) known.set(piece, tokens)
  return { chunks, frequencies }
}
