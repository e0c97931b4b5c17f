import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { generateSyntheticCorpus, toMarkdownFile } from '../testing/synthetic-corpus.ts'
import { resolveProjectConfig } from '../config/project-config.ts'
import type { Report } from '../contract/report-schema.ts'
import { serialiseReport } from '../report/write-report.ts'
import { threadsStarted } from '../threads/index.ts'
import { evaluate } from './evaluate.ts'

// A synthetic project large enough for every helper thread of an offline run: 1,500 documents (about
// 4.3 million body characters: the corpus index thread starts from 4 million), 2,000 questions (the judge's
// thread starts there) and the summary's bootstrap over them (the resamples' helper).
const dir = mkdtempSync(join(tmpdir(), 'rag-eval-one-thread-'))
const synthetic = generateSyntheticCorpus({ seed: 42, documents: 1500, questions: 2000 })
mkdirSync(join(dir, 'corpus'))
for (const doc of synthetic.documents) writeFileSync(join(dir, 'corpus', `${doc.id}.md`), toMarkdownFile(doc))
writeFileSync(join(dir, 'golden.json'), JSON.stringify({ questions: synthetic.questions }))
const project = resolveProjectConfig(
  { corpus: 'corpus', goldenSet: 'golden.json', humanLabels: 'no-labels.json', system: 'builtin', mode: 'offline' },
  { root: dir, source: 'one-thread test config', env: {} },
)

const HELPERS = ['corpus-index-thread-main', 'offline-judge-thread-main', 'resample-thread-main'] as const
/** The helper threads started while `run` ran, by main module. */
async function startedDuring<T>(run: () => Promise<T>): Promise<{ result: T; started: Record<string, number> }> {
  const before = threadsStarted()
  const result = await run()
  const after = threadsStarted()
  return { result, started: Object.fromEntries(HELPERS.map((main) => [main, (after[main] ?? 0) - (before[main] ?? 0)])) }
}

/** A full run of the project from a cold start (no corpus work or token counts kept), its `run` facts aside. */
async function coldRun(): Promise<string> {
  rmSync(join(dir, '.cache'), { recursive: true, force: true })
  const report = await evaluate(project, { tier: 'full', env: {}, baselineRoot: null })
  return serialiseReport({ ...report, run: null } as unknown as Report)
}

describe('RAG_EVAL_THREADS=0 on a 2,000-question synthetic set', { timeout: 600_000 }, () => {
  afterAll(() => {
    vi.unstubAllEnvs()
    rmSync(dir, { recursive: true, force: true })
  })

  it('starts no helper thread and gives the report the helper threads give, byte for byte', async () => {
    vi.stubEnv('RAG_EVAL_THREADS', '0')
    const alone = await startedDuring(coldRun)
    vi.stubEnv('RAG_EVAL_THREADS', '1')
    const threaded = await startedDuring(coldRun)
    expect(alone.started).toEqual({ 'corpus-index-thread-main': 0, 'offline-judge-thread-main': 0, 'resample-thread-main': 0 })
    // Each helper ran (on a machine with a second core, which every CI runner has).
    expect(threaded.started).toEqual({ 'corpus-index-thread-main': 1, 'offline-judge-thread-main': 1, 'resample-thread-main': 1 })
    expect(threaded.result).toBe(alone.result)
    expect((JSON.parse(alone.result) as { questions: unknown[] }).questions).toHaveLength(2000)
  })
})
