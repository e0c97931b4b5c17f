import { spawn } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { filesUnder } from '../model/testing/eval-child.ts'
import { TEST_API_KEY } from '../model/testing/test-client.ts'
import { useScriptedServer } from '../model/testing/use-scripted-server.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { runEvaluation } from './evaluation-child.ts'

const temp = useTempDirs()
const local = useScriptedServer()
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A worker script of our own, to see what the global setup makes of a child that misbehaves. */
function fakeWorker(body: string): string {
  const file = join(temp.make('fake-worker-'), 'worker.mjs')
  writeFileSync(file, body)
  return file
}

/** Processes whose environment carries `marker` (the evaluation worker started for one test). */
function processesMarked(marker: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`WORKER_TEST_MARKER=${marker}`)
      } catch {
        return false
      }
    })
    .map(Number)
}

describe('the global setup reads the report of this run only (issue 11.1)', () => {
  it('a worker that exits 0 without sending its report is a failed evaluation, whatever reports/ holds', async () => {
    const evaluation = await runEvaluation({}, fakeWorker('process.exit(0)\n'))
    expect(evaluation).toEqual({ ok: false, error: 'the evaluation exited with code 0 without sending its report' })
  })

  it('a report tagged with another run id is refused', async () => {
    const worker = fakeWorker("process.send({ type: 'failed', runId: 'an-earlier-run', error: 'x' }, () => process.exit(0))\n")
    const evaluation = await runEvaluation({}, worker)
    expect(evaluation.ok).toBe(false)
    expect(!evaluation.ok && evaluation.error).toMatch(
      /^the evaluation worker answered for run an-earlier-run, not this run [0-9a-f-]{36}$/,
    )
  })

  it('a worker that fails sends its reason', async () => {
    const worker = fakeWorker(
      "process.send({ type: 'failed', runId: process.env.RAG_EVAL_RUN_ID, error: 'corpus/x.md: not UTF-8' }, () => process.exit(1))\n",
    )
    expect(await runEvaluation({}, worker)).toEqual({ ok: false, error: 'the evaluation failed: corpus/x.md: not UTF-8' })
  })
})

describe('the evaluation dies with Vitest, and what it paid for lands in the cache (issue 11.4)', () => {
  for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
    it(`Vitest killed by ${signal} mid-run: the worker stops sending, exits, and every answered call is in the cache`, async () => {
      local.server.latencyMs = 300
      const cacheDir = temp.make('worker-cache-')
      const marker = `${signal}-${process.pid}-${Date.now()}`
      // The stand-in for Vitest runs the real worker on the whole golden set, live against the local server.
      const parent = spawn(process.execPath, ['--import', 'tsx', 'src/vitest/testing/vitest-stand-in.ts'], {
        env: {
          ...process.env,
          EVAL_MODE: 'live',
          ANTHROPIC_API_KEY: TEST_API_KEY,
          ANTHROPIC_BASE_URL: local.server.url,
          EVAL_CACHE_DIR: cacheDir,
          EVAL_REPORTS_DIR: temp.make('worker-reports-'),
          EVAL_CONCURRENCY: '4',
          GATE: '',
          WORKER_TEST_MARKER: marker,
        },
        stdio: ['ignore', 'ignore', process.env.WORKER_TEST_DEBUG ? 'inherit' : 'ignore'],
      })
      try {
        while (local.server.requests.length < 6) await sleep(50)
        // The stand-in and the worker (tsx's esbuild service processes carry the marker too).
        expect(processesMarked(marker).length).toBeGreaterThanOrEqual(2)
      } finally {
        parent.kill(signal)
      }
      // The calls in flight (300 ms each) land, then the worker exits: nothing of it may remain.
      // Waited for, not timed: a worker that never exits meets the test's hang limit.
      while (processesMarked(marker).length > 0) await sleep(100)
      const sent = local.server.requests.length
      await sleep(1000)
      expect(local.server.requests.length).toBe(sent)
      // Far fewer calls than a whole run (120 questions, each answered and judged), and each one answered is cached.
      expect(sent).toBeLessThan(60)
      expect(filesUnder(cacheDir).filter((file) => file.endsWith('.json'))).toHaveLength(sent)
    })
  }
})
