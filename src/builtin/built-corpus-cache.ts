import { closeSync, fstatSync, openSync, readdirSync, readFileSync, readSync, rmSync, statSync, utimesSync } from 'node:fs'
import { endianness } from 'node:os'
import { basename, extname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { z } from 'zod'
import type { RetrieverOptions } from '../contract/retriever-options.ts'
import { contentHash } from '../text/content-hash.ts'
import type { Bm25Index } from './bm25-index.ts'
import type { BuiltCorpus } from './builtin-system.ts'
import type { Chunk } from './chunker.ts'
import { TOKENIZER_NAME, TOKENIZER_VERSION } from '../text/tokenizer.ts'
import { writeFileAtomic } from '../files/write-file-atomic.ts'

/**
 * The built-in system's corpus work (BuiltCorpus) kept between runs under <root>/.cache/index/, since most runs
 * repeat it exactly (docs/scaling.md, "Large golden sets", "The corpus work is kept between runs"). The key hashes
 * all it depends on, the system's own code included; a missing, damaged or foreign file is a cold start.
 */

/** Files kept: a knob sweep (EVAL_CHUNK_TOKENS=200, 300, 400) keeps each of its corpora, and the folder stays bounded. */
const KEPT_FILES = 4

const FORMAT = 'rag-eval-built-corpus/1'

/**
 * The file: a 4-byte little-endian length and this header as JSON; the chunks' texts as UTF-8 (chunk i's ends at
 * character textEnd[i]); padding to 8; postingStart and postingChunk (int32), padding to 8, postingWeight (float64).
 * Columns and raw bytes, so reading is cheap and holds no second copy (docs/scaling.md, "Why the code is shaped as it is").
 */
const HeaderSchema = z.object({
  format: z.literal(FORMAT),
  key: z.string(),
  /** chunker.ts's Chunk, by field. */
  chunks: z.object({
    chunkId: z.array(z.string()),
    docId: z.array(z.string()),
    ordinal: z.array(z.number().int().nonnegative()),
    heading: z.array(z.string()),
    tokens: z.array(z.number().int().nonnegative()),
    textEnd: z.array(z.number().int().nonnegative()),
  }),
  textBytes: z.number().int().nonnegative(),
  /** The BM25 terms by id. */
  terms: z.array(z.string()),
  postings: z.number().int().nonnegative(),
  /** The offline answerer's document frequencies. */
  answererDf: z.object({ terms: z.array(z.string()), counts: z.array(z.number().int().positive()) }),
})

type Header = z.infer<typeof HeaderSchema>

/** What the built corpus depends on beyond the corpus: the knobs that shape chunks and the index. */
export interface BuiltCorpusKnobs {
  chunkTokens: number
  chunkOverlap: number
  retrieval: RetrieverOptions
}

const pad8 = (n: number) => (8 - (n % 8)) % 8

/** A hash of the built-in system's source files, null when they cannot be read (a bundle). */
function codeFingerprint(): string | null {
  try {
    const extension = extname(fileURLToPath(import.meta.url))
    // The built-in system's code and the text analysis it chunks and indexes with.
    const files = ['../builtin/', '../text/'].flatMap((folder) => {
      const path = fileURLToPath(new URL(folder, import.meta.url))
      return readdirSync(path)
        .filter((name) => name.endsWith(extension) && !name.includes('.test.'))
        .sort()
        .map((name) => join(path, name))
    })
    return contentHash(files.flatMap((file) => [basename(file), readFileSync(file, 'utf8')]))
  } catch {
    return null
  }
}

let fingerprint: string | null | undefined

/** The key of a corpus (its contentHash) built with these knobs by this code; null when the code cannot be fingerprinted (no caching). */
export function builtCorpusKey(corpusHash: string, knobs: BuiltCorpusKnobs): string | null {
  fingerprint ??= codeFingerprint()
  if (fingerprint === null) return null
  // The reranker reorders rankings after the index: changing it keeps the built corpus.
  const { reranker: _reranker, rerankTopN: _rerankTopN, ...retrieval } = knobs.retrieval
  const { chunkTokens, chunkOverlap } = knobs
  return contentHash([
    FORMAT,
    corpusHash,
    JSON.stringify({ chunkTokens, chunkOverlap, retrieval }),
    TOKENIZER_NAME,
    TOKENIZER_VERSION,
    process.versions.unicode ?? '',
    endianness(),
    fingerprint,
  ])
}

const fileOf = (folder: string, key: string) => join(folder, `${key}.bin`)

/** Where each section of a file with this header starts (after the header's `headerEnd` bytes), and where the file ends. */
function layout(headerEnd: number, header: Pick<Header, 'textBytes' | 'terms' | 'postings'>) {
  const texts = headerEnd
  const postingStart = texts + header.textBytes + pad8(texts + header.textBytes)
  const postingChunk = postingStart + (header.terms.length + 1) * 4
  const postingWeight = postingChunk + header.postings * 4 + pad8(postingChunk + header.postings * 4)
  return { texts, postingStart, postingChunk, postingWeight, end: postingWeight + header.postings * 8 }
}

/** Fills `target` with the file's bytes from `position` on (a typed array is read into, not copied). */
function readInto(fd: number, target: ArrayBufferView, position: number): void {
  const bytes = new Uint8Array(target.buffer, target.byteOffset, target.byteLength)
  for (let read = 0; read < bytes.length;) {
    const got = readSync(fd, bytes, read, bytes.length - read, position + read)
    if (got === 0) throw new Error('unexpected end of file')
    read += got
  }
}

/** The header's chunks, given the concatenation of their texts; null when the columns disagree. */
function chunksOf(columns: Header['chunks'], texts: string): Chunk[] | null {
  const n = columns.chunkId.length
  const lengths = [columns.docId, columns.ordinal, columns.heading, columns.tokens, columns.textEnd].map(
    (column) => column.length,
  )
  if (lengths.some((length) => length !== n) || (n > 0 && columns.textEnd[n - 1] !== texts.length)) return null
  const chunks = new Array<Chunk>(n)
  for (let i = 0, start = 0; i < n; i++) {
    const end = columns.textEnd[i]!
    if (end < start) return null
    chunks[i] = {
      chunkId: columns.chunkId[i]!,
      docId: columns.docId[i]!,
      ordinal: columns.ordinal[i]!,
      heading: columns.heading[i]!,
      text: texts.slice(start, end),
      tokens: columns.tokens[i]!,
    }
    start = end
  }
  return chunks
}

/** Whether the index's arrays fit each other and the chunks (a damaged file is a cold start, not a wrong ranking). */
function coherent(index: Pick<Bm25Index, 'postingStart' | 'postingChunk' | 'postingWeight'>, chunkCount: number): boolean {
  const { postingStart, postingChunk, postingWeight } = index
  if (postingStart[0] !== 0 || postingStart[postingStart.length - 1] !== postingChunk.length) return false
  for (let t = 1; t < postingStart.length; t++) if (postingStart[t]! < postingStart[t - 1]!) return false
  // Indexed loops: for...of is several times slower over millions of postings (docs/scaling.md, "Why the code is shaped as it is").
  for (let p = 0; p < postingChunk.length; p++) if (postingChunk[p]! < 0 || postingChunk[p]! >= chunkCount) return false
  for (let p = 0; p < postingWeight.length; p++) if (!Number.isFinite(postingWeight[p]!)) return false
  return true
}

/** The corpus a previous run built under `key`, or null (none, damaged, or another key's). */
export function readBuiltCorpus(folder: string, key: string): BuiltCorpus | null {
  const file = fileOf(folder, key)
  let fd: number
  try {
    fd = openSync(file, 'r')
  } catch {
    return null
  }
  try {
    const size = fstatSync(fd).size
    const prefix = Buffer.alloc(4)
    readInto(fd, prefix, 0)
    const headerBytes = Buffer.alloc(prefix.readUInt32LE(0))
    readInto(fd, headerBytes, 4)
    const parsed = HeaderSchema.safeParse(JSON.parse(headerBytes.toString('utf8')))
    if (!parsed.success || parsed.data.key !== key) return null
    const header = parsed.data
    const at = layout(4 + headerBytes.length, header)
    if (size !== at.end) return null
    const textBytes = Buffer.alloc(header.textBytes)
    readInto(fd, textBytes, at.texts)
    const chunks = chunksOf(header.chunks, textBytes.toString('utf8'))
    const index = {
      postingStart: new Int32Array(header.terms.length + 1),
      postingChunk: new Int32Array(header.postings),
      postingWeight: new Float64Array(header.postings),
    }
    readInto(fd, index.postingStart, at.postingStart)
    readInto(fd, index.postingChunk, at.postingChunk)
    readInto(fd, index.postingWeight, at.postingWeight)
    if (chunks === null || !coherent(index, chunks.length)) return null
    const df = header.answererDf
    if (df.terms.length !== df.counts.length) return null
    // Used now: the least recently used files go first when the folder is full.
    const now = new Date()
    utimesSync(file, now, now)
    return {
      chunks,
      bm25: { termIds: new Map(header.terms.map((term, id) => [term, id])), ...index },
      answererDf: new Map(df.terms.map((term, i) => [term, df.counts[i]!])),
    }
  } catch {
    return null
  } finally {
    closeSync(fd)
  }
}

/** The file's bytes, section by section: the texts in pieces of about a megabyte, the arrays as they are in memory. */
function* fileParts(key: string, built: BuiltCorpus): Generator<Uint8Array> {
  const { chunks, bm25, answererDf } = built
  let textEnd = 0
  let textBytes = 0
  const columns: Header['chunks'] = { chunkId: [], docId: [], ordinal: [], heading: [], tokens: [], textEnd: [] }
  for (const chunk of chunks) {
    columns.chunkId.push(chunk.chunkId)
    columns.docId.push(chunk.docId)
    columns.ordinal.push(chunk.ordinal)
    columns.heading.push(chunk.heading)
    columns.tokens.push(chunk.tokens)
    columns.textEnd.push((textEnd += chunk.text.length))
    textBytes += Buffer.byteLength(chunk.text)
  }
  const header: Header = {
    format: FORMAT,
    key,
    chunks: columns,
    textBytes,
    terms: [...bm25.termIds.keys()],
    postings: bm25.postingChunk.length,
    answererDf: { terms: [...answererDf.keys()], counts: [...answererDf.values()] },
  }
  const json = Buffer.from(JSON.stringify(header))
  const prefix = Buffer.alloc(4)
  prefix.writeUInt32LE(json.length)
  yield prefix
  yield json
  const at = layout(4 + json.length, header)
  let piece: string[] = []
  let pieceLength = 0
  for (const chunk of chunks) {
    piece.push(chunk.text)
    pieceLength += chunk.text.length
    if (pieceLength >= 1 << 20) {
      yield Buffer.from(piece.join(''))
      piece = []
      pieceLength = 0
    }
  }
  yield Buffer.from(piece.join(''))
  const bytesOf = (array: Int32Array | Float64Array) => new Uint8Array(array.buffer, array.byteOffset, array.byteLength)
  yield new Uint8Array(at.postingStart - at.texts - textBytes)
  yield bytesOf(bm25.postingStart)
  yield bytesOf(bm25.postingChunk)
  yield new Uint8Array(at.postingWeight - at.postingChunk - bm25.postingChunk.byteLength)
  yield bytesOf(bm25.postingWeight)
}

/** Keeps a built corpus under `key` (atomically), then drops the least recently used files beyond KEPT_FILES. */
export function writeBuiltCorpus(folder: string, key: string, built: BuiltCorpus): void {
  writeFileAtomic(fileOf(folder, key), fileParts(key, built))
  // Another run may be pruning the same folder: a file gone meanwhile is simply not counted.
  const kept = readdirSync(folder)
    .filter((name) => name.endsWith('.bin'))
    .map((name) => ({ file: join(folder, name), used: statSync(join(folder, name), { throwIfNoEntry: false })?.mtimeMs ?? -1 }))
    .filter(({ used }) => used >= 0)
    .sort((a, b) => b.used - a.used)
  for (const { file } of kept.slice(KEPT_FILES)) rmSync(file, { force: true })
}
