import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { loadProjectConfig } from '../config/load-project-config.ts'
import { renderTerminalSummary } from '../report/render-terminal.ts'
import type { RagSystem, SystemAnswer } from '../system/rag-system.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { evaluate } from './evaluate.ts'
import { ragEvalArgv } from '../testing/rag-eval-bin.ts'

/** The tiny project: three questions (g-1, g-2, g-3) over three documents. */
const tiny = await loadProjectConfig({ overrides: { corpus: 'fixtures/corpora/tiny', goldenSet: 'fixtures/golden/valid.json' } })
const temp = useTempDirs()

const traces = {
  chunkId: 't-001#0',
  docId: 't-001',
  score: 1,
  tokens: 20,
  text: 'Traces are kept for 15 days on Team and 30 days on Business.',
}

describe('an in-process system is held to the contract an HTTP service is', () => {
  it("a wrong shape and a call that never settles are those questions' system errors; a failing close() is a warning, the report kept", async () => {
    // fixtures/systems/faulty-system.ts: g-1 answered, g-2 in the wrong shape, g-3 never settles, close() throws.
    // timeoutMs 20 bounds g-3's call; g-1's answer is already settled when the timer starts.
    const report = await evaluate(tiny, {
      tier: 'full',
      env: { EVAL_TIMEOUT_MS: '20' },
      system: resolve('fixtures/systems/faulty-system.ts'),
      baselineRoot: null,
    })
    expect(report.questions.map((q) => [q.id, q.systemError])).toEqual([
      ['g-1', null],
      ['g-2', 'faulty failed: g-2: the answer breaks the contract: ranked: missing; expected an array of chunk objects'],
      ['g-3', 'faulty failed: g-3: did not answer within 20 ms (timeoutMs)'],
    ])
    expect(report.questions[0]).toMatchObject({ hit: true, answer: traces.text })
    expect(report.summary.systemErrors).toBe(2)
    const closeWarning =
      'the system faulty failed to close (the connection pool was already closed); its answers were all measured before, and stand'
    expect(report.warnings).toEqual([closeWarning])
    expect(renderTerminalSummary(report)).toContain(`warning: ${closeWarning}`)
  })

  it('end to end in its own process (rag-eval eval): the report of the answered question is written, naming the two failed ones', () => {
    const dir = temp.make('faulty-project-')
    const config = join(dir, 'rag-eval.config.ts')
    const paths = {
      corpus: resolve('fixtures/corpora/tiny'),
      goldenSet: resolve('fixtures/golden/valid.json'),
      system: resolve('fixtures/systems/faulty-system.ts'),
    }
    writeFileSync(config, `export default ${JSON.stringify(paths)}\n`)
    const out = join(dir, 'reports')
    // A never-settling promise used to let the process (or the evaluation's host) end with no report at all.
    const result = spawnSync(process.execPath, ragEvalArgv(['eval', '--config', config, '--out', out, '--baseline', '']), {
      encoding: 'utf8',
      env: { ...process.env, EVAL_TIMEOUT_MS: '20' },
    })
    expect(result.stderr).not.toMatch(/TypeError|\n\s+at /)
    const report = JSON.parse(readFileSync(join(out, 'latest.json'), 'utf8')) as {
      questions: { id: string; systemError: string | null }[]
    }
    expect(report.questions.map((q) => q.systemError)).toEqual([
      null,
      'faulty failed: g-2: the answer breaks the contract: ranked: missing; expected an array of chunk objects',
      'faulty failed: g-3: did not answer within 20 ms (timeoutMs)',
    ])
    expect(result.stdout).toContain('warning: the system faulty failed to close (the connection pool was already closed)')
  })

  it('a call held by a one-hour timer is a timeout error, and the run ends', async () => {
    const stop = new AbortController()
    const slow: RagSystem = {
      name: 'slow',
      async answer({ id }): Promise<SystemAnswer> {
        if (id === 'g-2') await sleep(3_600_000, undefined, { signal: stop.signal })
        return { ranked: [traces], context: [traces] }
      },
    }
    try {
      const report = await evaluate(tiny, { tier: 'retrieval', env: { EVAL_TIMEOUT_MS: '20' }, system: slow, baselineRoot: null })
      expect(report.questions.map((q) => q.systemError)).toEqual([
        null,
        'slow failed: g-2: did not answer within 20 ms (timeoutMs)',
        null,
      ])
    } finally {
      stop.abort()
    }
  })

  it('a rejection with something other than an Error reads as its text (it read "undefined")', async () => {
    const rejecting: RagSystem = {
      name: 'rejecting',
      answer: async ({ id }) => {
        // What a user's code may throw: not an Error.
        const reason: unknown = 'quota exceeded'
        if (id === 'g-1') throw reason
        return { ranked: [traces], context: [traces] }
      },
    }
    const report = await evaluate(tiny, { tier: 'retrieval', env: {}, system: rejecting, baselineRoot: null })
    expect(report.questions.map((q) => q.systemError)).toEqual(['rejecting failed: quota exceeded', null, null])
  })

  it('a chunk that alone exceeds the budget is warned about once, naming the chunk and the question', async () => {
    const big = { ...traces, chunkId: 't-001#big', tokens: 700 }
    const other = { ...traces, chunkId: 't-002#big', docId: 't-002', tokens: 900 }
    const oversized: RagSystem = {
      name: 'oversized',
      async answer({ id }) {
        return { ranked: id === 'g-1' ? [traces] : [big, other], context: [] }
      },
    }
    const report = await evaluate(tiny, {
      tier: 'retrieval',
      env: { EVAL_CONTEXT_BUDGET: '600' },
      system: oversized,
      baselineRoot: null,
    })
    expect(report.warnings).toEqual([
      'chunk "t-001#big" (ranked for g-2) has 700 tokens, more than budgetTokens 600 on its own: a context packed within the budget stops before it (2 such chunks over 2 questions)',
    ])
  })

  it('a system module with a syntax error is named by file:line:column', async () => {
    const dir = temp.make('syntax-error-system-')
    const file = join(dir, 'my-system.ts')
    writeFileSync(file, `export default {\n  name: 'mine',\n  answer: async (q) => { return { ranked: [] }\n}\n`)
    await expect(evaluate(tiny, { tier: 'retrieval', env: {}, system: file, baselineRoot: null })).rejects.toThrow(
      `system module ${file} failed to load: ${file}:5:1: syntax error: Unexpected token, expected ","`,
    )
  })

  it('an error a system module throws while loading names the line it was thrown at', async () => {
    const dir = temp.make('throwing-system-')
    const file = join(dir, 'my-system.ts')
    writeFileSync(file, `const url: string = 'x'\nif (url) throw new Error('VECTOR_DB_URL is not set')\nexport default {}\n`)
    await expect(evaluate(tiny, { tier: 'retrieval', env: {}, system: file, baselineRoot: null })).rejects.toThrow(
      `system module ${file} failed to load: VECTOR_DB_URL is not set (at ${file}:2)`,
    )
  })
})
