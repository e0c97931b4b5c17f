import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { generateSyntheticRun } from './generate-synthetic-run'
import { evaluateFiles } from './trec-eval'
import { useTempDirs } from '../testing/use-temp-dirs.ts'

/** Temp folders of this file's tests, removed after each test. */
const tempDirs = useTempDirs()

const tempDir = (): string => tempDirs.make('trec-synth-')

describe('generateSyntheticRun', () => {
  it('writes byte-identical files for the same seed and the documented shape', async () => {
    const options = { queries: 100, resultsPerQuery: 12, seed: 7 }
    const first = await generateSyntheticRun(tempDir(), options)
    const second = await generateSyntheticRun(tempDir(), options)
    const run = readFileSync(first.runPath, 'utf8')
    const qrels = readFileSync(first.qrelsPath, 'utf8')
    expect(readFileSync(second.runPath, 'utf8')).toBe(run)
    expect(readFileSync(second.qrelsPath, 'utf8')).toBe(qrels)

    const runLines = run.trimEnd().split('\n')
    expect(runLines.length).toBe(1200)
    expect(first.runLines).toBe(1200)
    expect(first.runBytes).toBe(Buffer.byteLength(run))
    expect(runLines.every((line) => line.split(' ').length === 6)).toBe(true)
    expect(runLines.slice(0, 12).map((line) => line.split(' ')[3])).toEqual(Array.from({ length: 12 }, (_, i) => String(i + 1)))
    // 12 retrieved + 10 unretrieved judgements per query; q97 has only rel 0
    const qrelsLines = qrels.trimEnd().split('\n')
    expect(qrelsLines.length).toBe(100 * 22)
    expect(qrelsLines.filter((line) => line.startsWith('q97 ')).every((line) => line.endsWith(' 0'))).toBe(true)

    const other = await generateSyntheticRun(tempDir(), { ...options, seed: 8 })
    expect(readFileSync(other.runPath, 'utf8')).not.toBe(run)
  })

  it('produces input pnpm trec evaluates over every query', async () => {
    const files = await generateSyntheticRun(tempDir(), { queries: 100, resultsPerQuery: 12, seed: 7 })
    const report = await evaluateFiles(files.qrelsPath, files.runPath, { measures: ['num_q', 'recip_rank'] })
    expect(report.summary[0]).toEqual({ measure: 'num_q', qid: 'all', value: 100, integer: true })
    expect(report.perQuery.find((row) => row.qid === 'q97')?.value).toBe(0)
  })
})
