// The worker of corpus-index-thread.ts: indexes the chunk texts it is sent and answers once at the end (the arrays
// moved, not copied); a failure reaches the parent's 'error' event.
import { parentPort } from 'node:worker_threads'
import { bm25IndexBuilder, type Bm25IndexBuilder } from '../builtin/bm25-index.ts'
import type { IndexThreadReply, IndexThreadRequest } from './corpus-index-thread.ts'

const port = parentPort!
let index: Bm25IndexBuilder | null = null

port.on('message', (request: IndexThreadRequest) => {
  if (request.kind === 'start') {
    index = bm25IndexBuilder(request.options)
  } else if (request.kind === 'chunks') {
    const { texts, headings } = request
    for (let i = 0; i < texts.length; i++) index!.add(texts[i]!, headings[i]!)
  } else {
    const { termIds, postingStart, postingChunk, postingWeight } = index!.finish()
    const reply: IndexThreadReply = {
      terms: [...termIds.keys()],
      postingStart,
      postingChunk,
      postingWeight,
      frequencies: index!.contentTermFrequencies(),
    }
    // The builder's arrays own their buffers (never a SharedArrayBuffer, never a view into a larger one).
    port.postMessage(reply, [
      postingStart.buffer as ArrayBuffer,
      postingChunk.buffer as ArrayBuffer,
      postingWeight.buffer as ArrayBuffer,
    ])
    port.close()
  }
})
