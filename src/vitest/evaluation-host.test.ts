import { spawn } from 'node:child_process'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { filesUnder } from '../model/testing/eval-child.ts'
import { TEST_API_KEY } from '../model/testing/test-client.ts'
import { useScriptedServer } from '../model/testing/use-scripted-server.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { decodeRun } from './shared-run.ts'
import { chooseEvaluationHost, startEvaluationHost, type EvaluationHostKind } from './evaluation-host.ts'

const temp = useTempDirs()
const local = useScriptedServer()
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A host script of our own, to see what the launcher makes of a child that misbehaves (it is sent the request first). */
function fakeHost(body: string): string {
  const file = join(temp.make('fake-host-'), 'host.mjs')
  writeFileSync(file, `process.once('message', (request) => {\n${body}\n})\n`)
  return file
}

/** The evaluation a host answers with, as an object. */
async function evaluateWith(kind: EvaluationHostKind, entry?: string, inline: Record<string, unknown> = {}) {
  const handedOver = await startEvaluationHost(kind, entry).evaluate({ options: { inline }, role: 'compare' })
  return { evaluation: decodeRun(handedOver.json), reported: handedOver.reported }
}

/** Processes whose environment carries `marker` (the evaluation's child host started for one test). */
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

describe('one host decides thread or child process (issue 21.3)', () => {
  it('a thread for offline and replay `vitest run`s; a child for live and record runs, watch mode, and a mode not known', () => {
    expect(chooseEvaluationHost({ watch: false, mode: 'offline' })).toBe('thread')
    expect(chooseEvaluationHost({ watch: false, mode: 'replay' })).toBe('thread')
    expect(chooseEvaluationHost({ watch: false, mode: 'live' })).toBe('child')
    expect(chooseEvaluationHost({ watch: false, mode: 'record' })).toBe('child')
    expect(chooseEvaluationHost({ watch: false, mode: 'unknown' })).toBe('child')
    expect(chooseEvaluationHost({ watch: true, mode: 'offline' })).toBe('child')
  })

  it('the same entry module answers with the same evaluation in a thread and in a child process', async () => {
    const inline = { corpus: 'fixtures/corpora/tiny', goldenSet: 'fixtures/golden/valid.json' }
    const [thread, child] = await Promise.all([
      evaluateWith('thread', undefined, inline),
      evaluateWith('child', undefined, inline),
    ])
    expect(thread.evaluation.ok).toBe(true)
    const measured = (e: typeof thread.evaluation) => (e.ok ? { ...e, report: { ...e.report, run: null } } : e)
    expect(measured(child.evaluation)).toEqual(measured(thread.evaluation))
    expect(child.reported).toEqual(thread.reported)
    const golden = JSON.parse(readFileSync('fixtures/golden/valid.json', 'utf8')) as { questions: { id: string }[] }
    expect(thread.evaluation.ok && thread.evaluation.report.questions.map((q) => q.id)).toEqual(golden.questions.map((q) => q.id))
  }, 120_000)
})

describe('the global setup reads the evaluation of this run only (issue 11.1)', () => {
  it('a host that exits 0 without answering is a failed evaluation, whatever reports/ holds', async () => {
    const { evaluation } = await evaluateWith('child', fakeHost('process.exit(0)'))
    expect(evaluation).toEqual({ ok: false, error: 'the evaluation exited with code 0 without sending its evaluation' })
  }, 60_000)

  it('an answer tagged with another run id is refused', async () => {
    const json = '[new TextEncoder().encode(\'{"ok":true}\')]'
    const host = fakeHost(
      `process.send({ kind: 'evaluated', runId: 'an-earlier-run', json: ${json}, reported: { ok: false, error: 'x' }, writing: false }, () => process.exit(0))`,
    )
    const { evaluation } = await evaluateWith('child', host)
    expect(evaluation.ok).toBe(false)
    expect(!evaluation.ok && evaluation.error).toMatch(
      /^the evaluation's child answered for run an-earlier-run, not this run [0-9a-f-]{36}$/,
    )
  })

  it('a host that fails sends its reason, in the same message as an evaluation', async () => {
    const failed = { ok: false, error: 'the evaluation failed: corpus/x.md: not UTF-8' }
    const json = `[new TextEncoder().encode(${JSON.stringify(JSON.stringify(failed))})]`
    const host = fakeHost(
      `process.send({ kind: 'evaluated', runId: request.runId, json: ${json}, reported: ${JSON.stringify(failed)}, writing: false }, () => process.exit(1))`,
    )
    expect(await evaluateWith('child', host)).toEqual({ evaluation: failed, reported: failed })
  }, 60_000)
})

describe('the evaluation dies with Vitest, and what it paid for lands in the cache (issue 11.4)', () => {
  for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
    it(`Vitest killed by ${signal} mid-run: the child host stops sending, exits, and every answered call is in the cache`, async () => {
      local.server.latencyMs = 300
      const cacheDir = temp.make('worker-cache-')
      const marker = `${signal}-${process.pid}-${Date.now()}`
      // The stand-in for Vitest runs the real child host on the whole golden set, live against the local server.
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
        // The stand-in and the child host (tsx's esbuild service processes carry the marker too).
        expect(processesMarked(marker).length).toBeGreaterThanOrEqual(2)
      } finally {
        parent.kill(signal)
      }
      // The calls in flight (300 ms each) land, then the child host exits: nothing of it may remain.
      const deadline = Date.now() + 10_000
      while (processesMarked(marker).length > 0 && Date.now() < deadline) await sleep(100)
      expect(processesMarked(marker)).toEqual([])
      const sent = local.server.requests.length
      await sleep(1000)
      expect(local.server.requests.length).toBe(sent)
      // Far fewer calls than a whole run (120 questions, each answered and judged), and each one answered is cached.
      expect(sent).toBeLessThan(60)
      expect(filesUnder(cacheDir).filter((file) => file.endsWith('.json'))).toHaveLength(sent)
    }, 60_000)
  }
})
