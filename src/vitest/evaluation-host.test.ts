import { spawn } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { filesUnder } from '../model/testing/eval-child.ts'
import { TEST_API_KEY } from '../model/testing/test-client.ts'
import { useScriptedServer } from '../model/testing/use-scripted-server.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import type { Report } from '../contract/report-schema.ts'
import { builtSourceBundle, sourceBundle } from '../threads/thread-bundle.ts'
import { evaluateInChild } from './evaluation-host.ts'

const temp = useTempDirs()
/** The questions of the killed runs' golden set. */
const QUESTIONS = 24
const local = useScriptedServer()
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A host script of our own, to see what the launcher makes of a child that misbehaves (it is sent the request first). */
function fakeHost(body: string): string {
  const file = join(temp.make('fake-host-'), 'host.mjs')
  writeFileSync(file, `process.once('message', (request) => {\n${body}\n})\n`)
  return file
}

/** What a host answers, with the report it wrote (null when it wrote none). */
async function evaluateWith(entry?: string, inline: Record<string, unknown> = {}) {
  const reportFile = join(temp.make('host-report-'), 'report.json')
  const { run } = await evaluateInChild({ options: { inline }, role: 'compare', reportFile }, entry)
  return { run, report: existsSync(reportFile) ? (JSON.parse(readFileSync(reportFile, 'utf8')) as Report) : null }
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

describe('the host writes the report where it is asked, and answers with the rest of the run', () => {
  it("the report holds the golden set's questions; the answer is the run without it", async () => {
    const inline = { corpus: 'fixtures/corpora/tiny', goldenSet: 'fixtures/golden/valid.json' }
    const { run, report } = await evaluateWith(undefined, inline)
    const golden = JSON.parse(readFileSync('fixtures/golden/valid.json', 'utf8')) as { questions: { id: string }[] }
    expect(report?.questions.map((q) => q.id)).toEqual(golden.questions.map((q) => q.id))
    expect(run).toMatchObject({ ok: true, report: null, questions: golden.questions.length, comparison: null })
  })
})

describe('an evaluation that fails is the answer, with why', () => {
  it('a knob the run cannot start from: the host answers with its error (no stack), no report written', async () => {
    // The host inherits the environment when it starts (synchronously, in evaluateInChild): restored right after.
    vi.stubEnv('EVAL_CONTEXT_BUDGET', '0')
    let answered: ReturnType<typeof evaluateWith>
    try {
      answered = evaluateWith(undefined, { corpus: 'fixtures/corpora/tiny', goldenSet: 'fixtures/golden/valid.json' })
    } finally {
      vi.unstubAllEnvs()
    }
    expect(await answered).toEqual({
      run: { ok: false, error: 'the evaluation failed: EVAL_CONTEXT_BUDGET: Too small: expected number to be >0 (got 0)' },
      report: null,
    })
  })
})

describe('the global setup reads the evaluation of this run only', () => {
  it('a host that exits 0 without answering is a failed evaluation, whatever reports/ holds', async () => {
    const { run } = await evaluateWith(fakeHost('process.exit(0)'))
    expect(run).toEqual({ ok: false, error: 'the evaluation exited with code 0 without sending its evaluation' })
  })

  it('an answer tagged with another run id is refused', async () => {
    const host = fakeHost(
      `process.send({ kind: 'evaluated', runId: 'an-earlier-run', run: { ok: true }, writing: false }, () => process.exit(0))`,
    )
    const { run } = await evaluateWith(host)
    expect(run.ok).toBe(false)
    expect(!run.ok && run.error).toMatch(/^the evaluation answered for run an-earlier-run, not this run [0-9a-f-]{36}$/)
  })

  it('a host that fails sends its reason, in the same message as an evaluation', async () => {
    const failed = { ok: false, error: 'the evaluation failed: corpus/x.md: not UTF-8' }
    const host = fakeHost(
      `process.send({ kind: 'evaluated', runId: request.runId, run: ${JSON.stringify(failed)}, writing: false }, () => process.exit(1))`,
    )
    expect(await evaluateWith(host)).toEqual({ run: failed, report: null })
  })
})

describe('the evaluation dies with Vitest, and what it paid for lands in the cache', () => {
  // The stand-in runs from a bundle of the sources as they are now, as the bin does (src/testing/rag-eval-bin.ts), not
  // through tsx's transform of each module; tsx when the bundle cannot be built.
  const STAND_IN = fileURLToPath(new URL('testing/vitest-stand-in.ts', import.meta.url))
  let standIn: string[] = []
  beforeAll(async () => {
    await sourceBundle(STAND_IN).building
    const bundle = builtSourceBundle(STAND_IN)
    standIn = bundle === null ? ['--import', 'tsx', STAND_IN] : [bundle]
  })
  /**
   * The golden set's first 24 questions (a whole live run of them: an answer and a judge's call or more each): the host's cost
   * estimate, made before the first call, tokenises every prompt of the run (most of its start-up with all 120).
   */
  const goldenSet = () => {
    const file = join(temp.make('worker-golden-'), 'golden-set.json')
    const golden = JSON.parse(readFileSync('evals/golden-set.json', 'utf8')) as { questions: unknown[] }
    writeFileSync(file, JSON.stringify({ ...golden, questions: golden.questions.slice(0, QUESTIONS) }))
    return file
  }
  for (const signal of ['SIGKILL', 'SIGTERM'] as const) {
    it(`Vitest killed by ${signal} mid-run: the child host stops sending, exits, and every answered call is in the cache`, async () => {
      local.server.latencyMs = 300
      const cacheDir = temp.make('worker-cache-')
      const marker = `${signal}-${process.pid}-${Date.now()}`
      // The stand-in for Vitest runs the real child host on the golden set's first questions, live against the local server.
      const parent = spawn(process.execPath, standIn, {
        env: {
          ...process.env,
          EVAL_MODE: 'live',
          ANTHROPIC_API_KEY: TEST_API_KEY,
          ANTHROPIC_BASE_URL: local.server.url,
          EVAL_CACHE_DIR: cacheDir,
          EVAL_REPORTS_DIR: temp.make('worker-reports-'),
          STAND_IN_REPORT: join(temp.make('worker-handover-'), 'report.json'),
          STAND_IN_INLINE: JSON.stringify({ goldenSet: goldenSet() }),
          EVAL_CONCURRENCY: '4',
          GATE: '',
          WORKER_TEST_MARKER: marker,
        },
        stdio: ['ignore', 'ignore', process.env.WORKER_TEST_DEBUG ? 'inherit' : 'ignore'],
      })
      try {
        while (local.server.requests.length < 6) await sleep(50)
        // The stand-in and the child host.
        expect(processesMarked(marker).length).toBeGreaterThanOrEqual(2)
      } finally {
        parent.kill(signal)
      }
      // The calls in flight (300 ms each) land, then the child host exits: nothing of it may remain (a host that
      // never exits hangs here until the project's hang limit fails the test; no speed budget).
      while (processesMarked(marker).length > 0) await sleep(100)
      const sent = local.server.requests.length
      await sleep(1000)
      expect(local.server.requests.length).toBe(sent)
      // Fewer calls than a whole run (each question answered and judged), and each one answered is cached.
      expect(sent).toBeLessThan(2 * QUESTIONS)
      expect(filesUnder(cacheDir).filter((file) => file.endsWith('.json'))).toHaveLength(sent)
    })
  }
})
