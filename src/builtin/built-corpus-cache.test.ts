import { readdirSync, readFileSync, statSync, truncateSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resolveEvalConfig } from '../config/eval-config.ts'
import { contentHash } from '../text/content-hash.ts'
import { contentTerms } from '../text/text-analyzer.ts'
import type { CorpusDocument } from '../load/corpus.ts'
import { createBuiltinSystem, type BuiltinSystem } from './builtin-system.ts'
import type { SystemQuestion } from '../system/rag-system.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { builtCorpusKey, readBuiltCorpus, writeBuiltCorpus } from './built-corpus-cache.ts'
import { openSystem } from '../run/open-system.ts'

const temp = useTempDirs()

const doc = (id: string, title: string, body: string): CorpusDocument => ({ id, title, body, file: `${id}.md` })
const corpus = [
  doc(
    'sampling',
    'Trace Sampling',
    '# Trace Sampling\n\nHead sampling decides at the root span. Tail sampling waits for the whole trace.\n\n## Rates\n\nThe default rate is 10% of traces; errors are always kept.',
  ),
  doc(
    'retention',
    'Retention',
    'Traces are kept for 30 days. Logs are kept for 14 days, or 90 days on the Enterprise plan — “non-ASCII” text too.',
  ),
]
const config = resolveEvalConfig({ chunkTokens: 24, chunkOverlap: 4 }, {}, 'test config')
const corpusHash = contentHash(corpus.flatMap((d) => [d.id, d.title, d.body]))
const key = builtCorpusKey(corpusHash, config)!

const build = (built: BuiltinSystem['built'] | null = null) => createBuiltinSystem(corpus, { ...config, generate: true, built })

describe('the built corpus kept between runs', () => {
  it('reads back exactly what was written: every chunk, the BM25 index to the bit, the answerer’s frequencies', async () => {
    const folder = temp.make('index-')
    const fresh = build()
    expect(fresh.chunks.length).toBeGreaterThan(3)
    writeBuiltCorpus(folder, key, fresh.built)
    const read = readBuiltCorpus(folder, key)!
    expect(read.chunks).toEqual(fresh.built.chunks)
    expect([...read.bm25.termIds]).toEqual([...fresh.built.bm25.termIds])
    expect(read.bm25.postingStart).toEqual(fresh.built.bm25.postingStart)
    expect(read.bm25.postingChunk).toEqual(fresh.built.bm25.postingChunk)
    expect(read.bm25.postingWeight).toEqual(fresh.built.bm25.postingWeight)
    expect([...read.answererDf]).toEqual([...fresh.built.answererDf])
    // A system over the read corpus ranks and answers as the fresh one does, and reuses it as it is.
    const reused = build(read)
    expect(reused.built).toBe(read)
    for (const question of ['What is the default sampling rate?', 'How long are logs kept on Enterprise?']) {
      const q = { id: 'q', question, userContext: null }
      expect(await answerOf(reused, q)).toEqual(await answerOf(fresh, q))
    }
  })

  it('a corpus built by a retrieval-only run serves a run that answers offline as it is', async () => {
    const retrievalOnly = createBuiltinSystem(corpus, { ...config, generate: false }).built
    const reused = build(retrievalOnly)
    expect(reused.built).toBe(retrievalOnly)
    const withTrace = retrievalOnly.chunks.filter((chunk) => contentTerms(chunk.text).includes('trace')).length
    expect(withTrace).toBeGreaterThan(1)
    expect(retrievalOnly.answererDf.get('trace')).toBe(withTrace)
    const q = { id: 'q', question: 'How long are logs kept on Enterprise?', userContext: null }
    expect(await answerOf(reused, q)).toEqual(await answerOf(build(), q))
  })

  it('a key differs with the corpus, the chunking and retrieval knobs; a file under another key, damaged or foreign is a cold start', () => {
    const other = [
      builtCorpusKey(contentHash(['another corpus']), config),
      builtCorpusKey(corpusHash, { ...config, chunkTokens: 25 }),
      builtCorpusKey(corpusHash, { ...config, chunkOverlap: 5 }),
      builtCorpusKey(corpusHash, { ...config, retrieval: { ...config.retrieval, k1: 1.3 } }),
    ]
    expect(new Set([key, ...other]).size).toBe(5)
    const folder = temp.make('index-')
    writeBuiltCorpus(folder, key, build().built)
    const file = join(folder, `${key}.bin`)
    // The same bytes under another key's name: the header's key is checked.
    writeFileSync(join(folder, `${other[0]}.bin`), readFileSync(file))
    expect(readBuiltCorpus(folder, other[0]!)).toBeNull()
    truncateSync(file, statSync(file).size - 8)
    expect(readBuiltCorpus(folder, key)).toBeNull()
    writeFileSync(file, 'not an index')
    expect(readBuiltCorpus(folder, key)).toBeNull()
    expect(readBuiltCorpus(folder, 'absent')).toBeNull()
  })

  it('keeps the four most recently used files', () => {
    const folder = temp.make('index-')
    const built = build().built
    const keys = ['k1', 'k2', 'k3', 'k4', 'k5']
    keys.forEach((k, i) => {
      writeBuiltCorpus(folder, k, built)
      // Distinct use times, k1 the oldest; reading k1 again makes it the most recent.
      const at = new Date(Date.UTC(2026, 0, 1, 0, i))
      utimesSync(join(folder, `${k}.bin`), at, at)
      if (k === 'k4') expect(readBuiltCorpus(folder, 'k1')).not.toBeNull()
    })
    expect(readdirSync(folder).sort()).toEqual(['k1.bin', 'k3.bin', 'k4.bin', 'k5.bin'])
  })

  it('a run over the same corpus uses the kept file; one that cannot keep it says why and runs', async () => {
    const root = temp.make('project-')
    const cache = { folder: join(root, '.cache', 'index'), corpusHash, warn: (message: string) => warnings.push(message) }
    const warnings: string[] = []
    const context = { corpus, config, generate: true, root, log: () => {}, corpusCache: cache }
    const first = (await openSystem('builtin', context)) as BuiltinSystem
    expect(readdirSync(cache.folder)).toEqual([`${key}.bin`])
    // The kept chunks are what the next run uses: a text changed in the file shows up in its system.
    const kept = readBuiltCorpus(cache.folder, key)!
    kept.chunks[0] = { ...kept.chunks[0]!, text: `${kept.chunks[0]!.text} (from the file)` }
    writeBuiltCorpus(cache.folder, key, kept)
    const second = (await openSystem('builtin', context)) as BuiltinSystem
    expect(second.chunks[0]!.text).toBe(`${first.chunks[0]!.text} (from the file)`)
    expect(warnings).toEqual([])
    // A folder that is a file: the run goes on, and the report will say the corpus was not kept.
    const blocked = join(root, 'blocked')
    writeFileSync(blocked, '')
    const third = (await openSystem('builtin', {
      ...context,
      corpusCache: { ...cache, folder: join(blocked, 'index') },
    })) as BuiltinSystem
    expect(third.chunks).toEqual(first.chunks)
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toMatch(
      new RegExp(
        `^the built corpus could not be kept in ${join(blocked, 'index')} \\(.*ENOTDIR.*\\): the next run builds it again$`,
      ),
    )
  })
})

/** A system's answer, without its timings. */
async function answerOf(system: BuiltinSystem, question: SystemQuestion) {
  const { timingsMs: _timings, ...answer } = await system.answer(question)
  return answer
}
