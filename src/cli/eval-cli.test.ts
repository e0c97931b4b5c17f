import { spawnSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { ragEvalArgv } from '../testing/rag-eval-bin.ts'
import { ragEvalInProcess } from './testing/rag-eval-in-process.ts'

const temp = useTempDirs()

/** Runs `rag-eval eval` (pnpm eval:cli) in-process, returning exit code and output. */
const runEval = (args: string[], env: Record<string, string> = {}) =>
  ragEvalInProcess(['eval', ...args], { env: { ...process.env, ...env } })

/** The same through the bin, as a user would. */
function spawnEval(args: string[], env: Record<string, string> = {}) {
  const result = spawnSync(process.execPath, ragEvalArgv(['eval', ...args]), {
    encoding: 'utf8',
    env: { ...process.env, ...env },
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe('rag-eval eval on bad input: a clear message and a non-zero exit, no stack trace', () => {
  it.each([
    [
      ['--corpus', 'fixtures/corpora/missing'],
      {},
      'eval: --corpus fixtures/corpora/missing: not found (expected a folder)\nusage: rag-eval eval ',
    ],
    [
      ['--corpus', 'fixtures/corpora/duplicate-id'],
      {},
      'eval: fixtures/corpora/duplicate-id/second.md: duplicate document id t-001',
    ],
    [['--corpus', 'fixtures/corpora/empty-doc'], {}, 'eval: fixtures/corpora/empty-doc/empty.md: document e-001 is empty'],
    [
      ['--corpus', 'fixtures/corpora/tiny', '--golden', 'fixtures/golden/broken-json.json'],
      {},
      'eval: fixtures/golden/broken-json.json:4:5: invalid JSON',
    ],
    [
      ['--corpus', 'fixtures/corpora/tiny', '--golden', 'fixtures/golden/unknown-type.json'],
      {},
      'eval: fixtures/golden/unknown-type.json: question g-7, field "type": unknown type "lookupp"',
    ],
    [[], { EVAL_CONTEXT_BUDGET: '0' }, 'eval: EVAL_CONTEXT_BUDGET: Too small: expected number to be >0 (got 0)'],
    [[], { EVAL_CONTEXT_BUDGET: '-100' }, 'eval: EVAL_CONTEXT_BUDGET: Too small: expected number to be >0 (got -100)'],
  ])('%j %j', async (args, env, message) => {
    const out = temp.make('eval-bad-')
    const result = await runEval([...args, '--out', out], env)
    expect(result.code).toBe(2)
    expect(result.stderr).toContain(message)
    expect(result.stderr).not.toMatch(/\n\s+at /)
    // Nothing half-written: a failed run leaves no report behind.
    expect(readdirSync(out)).toEqual([])
  })

  it('runs the tiny fixture corpus end to end and writes both reports', () => {
    const out = temp.make('eval-ok-')
    const result = spawnEval([
      '--corpus',
      'fixtures/corpora/tiny',
      '--golden',
      'fixtures/golden/valid.json',
      '--out',
      out,
      '--baseline',
      '',
    ])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(readdirSync(out).sort()).toEqual([
      'attribution.jsonl',
      'charts',
      'contexts.jsonl',
      'latest.json',
      'latest.md',
      'summary.md',
    ])
    expect(result.stdout).toContain('3 questions (2 answerable, 1 none)')
  })
})
