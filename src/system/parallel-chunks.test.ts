import { availableParallelism } from 'node:os'
import { describe, expect, it } from 'vitest'
import { generateSyntheticCorpus } from '../bench/synthetic-corpus.ts'
import type { CorpusDocument } from '../load/corpus.ts'
import { pieceTokenCounts } from '../support/tokenizer.ts'
import { chunkDocumentFrequencies } from './chunk-document-frequencies.ts'
import { chunkCorpus } from './chunker.ts'
import { chunkCorpusOnTwoThreads, worthASecondThread } from './parallel-chunks.ts'

const options = { chunkTokens: 160, chunkOverlap: 32 }

const doc = (id: string, body: string): CorpusDocument => ({ id, title: `Title of ${id}`, body, file: `${id}.md` })

/** One sentence of 400 words: longer than a chunk, so the chunker cuts it by tokens (splitByTokens). */
const oversized = (id: string) => doc(id, `# Long\n\n## Section one\n\n${'alpha beta gamma delta '.repeat(100).trim()}.\n\n## Section two\n\nA short one.\n`)

describe('chunkCorpusOnTwoThreads', () => {
  it('gives exactly chunkCorpus and its document frequencies, on a corpus large enough for a second thread', async () => {
    // 2,200 synthetic documents (6.3 M body characters, several sections each), with an oversized sentence
    // first (this thread's part) and last (the worker's).
    const synthetic = generateSyntheticCorpus({ seed: 11, documents: 2200, questions: 0 }).documents
    const corpus = [oversized('long-first'), ...synthetic, oversized('long-last')]
    expect(worthASecondThread(corpus)).toBe(true)

    const sequential = chunkCorpus(corpus, options)
    const parallel = await chunkCorpusOnTwoThreads(corpus, options, true)
    // Byte for byte: the same fields in the same order, the ordinals re-based.
    expect(JSON.stringify(parallel.chunks)).toBe(JSON.stringify(sequential))
    expect(parallel.chunks.at(-1)!.ordinal).toBe(sequential.length - 1)
    expect(parallel.chunks.filter((chunk) => chunk.docId === 'long-last').length).toBeGreaterThan(2)
    expect(parallel.frequencies).toEqual(chunkDocumentFrequencies(sequential))
  })

  it('counts no document frequencies unless asked', async () => {
    const corpus = [doc('a', 'First document.'), doc('b', 'Second document.')]
    const parallel = await chunkCorpusOnTwoThreads(corpus, options, false)
    expect(parallel.frequencies).toBeNull()
    expect(parallel.chunks.map((chunk) => [chunk.chunkId, chunk.ordinal, chunk.text])).toEqual([
      ['a#1', 0, 'Title of a\nFirst document.'],
      ['b#1', 1, 'Title of b\nSecond document.'],
    ])
  })

  it('keeps the token counts the worker made, so the run can save them', async () => {
    const piece = ' Zorblaxquith'
    expect(pieceTokenCounts().has(piece)).toBe(false)
    // The last document always goes to the worker.
    await chunkCorpusOnTwoThreads([doc('a', 'Nothing new here.'), doc('b', `The${piece} is new.`)], options, false)
    expect(pieceTokenCounts().has(piece)).toBe(true)
  })

  it("rejects with the worker's message when it cannot chunk a document", async () => {
    // o200k refuses a special-token string in plain text: the sequential path fails the same way.
    const corpus = [doc('a', 'A fine document.'), doc('b', 'Quoting <|endoftext|> in a document.')]
    expect(() => chunkCorpus(corpus, options)).toThrow('Disallowed special token found: <|endoftext|>')
    await expect(chunkCorpusOnTwoThreads(corpus, options, true)).rejects.toThrow(
      'chunking document b on a worker thread failed: Disallowed special token found: <|endoftext|>',
    )
  })

  it('rejects with its own error when this thread cannot chunk its part', async () => {
    const corpus = [doc('a', 'Quoting <|endoftext|> in a document.'), doc('b', 'A fine document.')]
    await expect(chunkCorpusOnTwoThreads(corpus, options, true)).rejects.toThrow(/^Disallowed special token found: <\|endoftext\|>$/)
  })
})

describe('worthASecondThread', () => {
  it('takes a second thread only from 6 M body characters', () => {
    expect(worthASecondThread([doc('a', 'x'.repeat(5_999_999))])).toBe(false)
    // availableParallelism() decides the rest: one core never takes a second thread.
    expect(worthASecondThread([doc('a', 'x'.repeat(6_000_000))])).toBe(availableParallelism() >= 2)
  })
})
