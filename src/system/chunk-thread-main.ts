// The worker thread of parallel-chunks.ts: chunks its documents as chunkCorpus does (ordinals from 0: the
// parent re-bases them) and sends the chunks in batches as it goes; the last message adds the document
// frequencies of all its chunks (when asked) and the piece token counts it made. A failure (a document it
// cannot chunk) is thrown: it reaches the parent's 'error' event with its message.
import { parentPort, workerData } from 'node:worker_threads'
import { pieceTokenCounts } from '../support/tokenizer.ts'
import { addDocumentFrequencies, chunkDocumentFrequencies } from './chunk-document-frequencies.ts'
import { chunkDocument, type Chunk } from './chunker.ts'
import type { ChunkThreadInput, ChunkThreadMessage } from './parallel-chunks.ts'

/**
 * Body characters chunked per batch. The parent reads each batch's message while this thread chunks the
 * next, so the few MB its buffer takes are reused: one message of all the chunks (17 MB at 10,000
 * synthetic documents) stayed in the process after the thread ended (in the thread's malloc arena, which
 * glibc keeps).
 */
const BATCH_CHARS = 1_000_000

const input = workerData as ChunkThreadInput
const known = pieceTokenCounts()
for (const [piece, tokens] of input.pieceTokens) known.set(piece, tokens)
const knownBefore = known.size
const frequencies = input.countFrequencies ? new Map<string, number>() : null
let ordinal = 0
let batch: Chunk[] = []
let batchChars = 0
const send = (last: boolean) => {
  // Each batch's frequencies are counted on its own: they are additive over disjoint sets of chunks.
  if (frequencies) addDocumentFrequencies(frequencies, chunkDocumentFrequencies(batch))
  const message: ChunkThreadMessage = last
    ? // A Map keeps insertion order: the pieces this thread counted come after those it was given.
      { chunks: batch, last: { frequencies, pieceTokens: new Map([...known].slice(knownBefore)) } }
    : { chunks: batch, last: null }
  parentPort!.postMessage(message)
  batch = []
  batchChars = 0
}
for (const doc of input.documents) {
  const chunks = chunkDocument(doc, input.options, ordinal)
  ordinal += chunks.length
  batch.push(...chunks)
  batchChars += doc.body.length
  if (batchChars >= BATCH_CHARS) send(false)
}
send(true)
