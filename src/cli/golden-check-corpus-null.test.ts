import { writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { ragEvalInProcess } from './testing/rag-eval-in-process.ts'

const temp = useTempDirs()

describe('golden check when the system owns its documents (corpus: null)', () => {
  it('runs the rules that need no document text and names the ones it skipped', async () => {
    const dir = temp.make('corpus-null-')
    const config = join(dir, 'rag-eval.config.ts')
    // The repository's golden set, checked without its corpus: every answer doc id is taken on trust.
    writeFileSync(
      config,
      `export default { corpus: null, goldenSet: ${JSON.stringify(resolve('evals/golden-set.json'))}, system: { http: { url: 'http://127.0.0.1:9/rag' } } }\n`,
    )
    const { code, stdout: output, stderr: err } = await ragEvalInProcess(['golden', 'check', '--config', config])
    expect(err).toBe('')
    expect(code).toBe(0)
    expect(output).toContain(
      `skipped unknown-doc, unsupported-fact, multi-facts-in-one-doc, none-too-easy: no document text (corpus is null in ${config}); pass --corpus <folder> to run them`,
    )
    expect(output).toContain('golden:check: 0 errors, 0 warnings in 120 questions')
  })
})
