import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { EVAL_PROJECT_RUN, evalProjectEnv } from '../testing/eval-project-run.ts'
import { loadProjectConfig } from '../config/load-project-config.ts'
import type { Report } from '../contract/report-schema.ts'
import { acceptBaseline } from '../gate/baseline-files.ts'
import { baselineDirFor } from '../gate/baseline-location.ts'
import { runFailsGate } from '../gate/run-failures.ts'
import { systemErrorRateCase } from '../gate/system-error-failure.ts'
import { readReport } from '../report/read-report.ts'
import { renderTerminalSummary } from '../report/render-terminal.ts'
import { evaluate } from '../run/evaluate.ts'
import { evaluateInChild } from './evaluation-host.ts'
import { describeEvidence } from './matchers/evidence.ts'
import { evidenceImage } from '../charts/evidence-image.ts'

/**
 * Runs that did not measure the system, as a user meets them: `vitest run` (and `-u`) against a fault-injecting HTTP
 * service and a faulty in-process system module. Every run that did not measure the system fails GATE=1,
 * and no such run becomes the baseline.
 */
const temp = useTempDirs()
const TINY = resolve('fixtures/corpora/tiny')
const DOCS = ['t-001', 't-002', 't-003']
const QUESTIONS = 20
const ids = Array.from({ length: QUESTIONS }, (_, i) => `q-${String(i + 1).padStart(2, '0')}`)
/** Question i's answer is in DOCS[i % 3]. */
const goldDoc = (id: string) => DOCS[(Number(id.slice(2)) - 1) % DOCS.length]!

/** What the service does with a question: answer it well, answer HTTP 422, or rank everything but its answer. */
type Fault = '422' | 'lose'
const faults = new Map<string, Fault>()
let server: Server
let url = ''

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = ''
    req.on('data', (chunk: Buffer) => (body += chunk.toString()))
    req.on('end', () => {
      const { id } = JSON.parse(body) as { id: string }
      const fault = faults.get(id)
      if (fault === '422') {
        res.writeHead(422, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ detail: 'question rejected' }))
        return
      }
      const gold = goldDoc(id)
      const docs = fault === 'lose' ? DOCS.filter((d) => d !== gold) : [gold, ...DOCS.filter((d) => d !== gold)]
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ ranked: docs.map((docId, i) => ({ docId, score: 3 - i, text: `text of ${docId}` })) }))
    })
  })
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rag`
})
afterAll(() => new Promise<void>((done) => server.close(() => done())))

/** A user's project: the tiny corpus, 20 questions, the service above; its baseline and reports in a temp folder. */
function userProject(system: unknown, goldenSet?: string): { dir: string; config: string } {
  const dir = temp.make('unmeasured-')
  const golden =
    goldenSet ??
    (() => {
      const file = join(dir, 'golden-set.json')
      const questions = ids.map((id) => ({
        id,
        type: 'single',
        question: `What does document ${goldDoc(id)} say, question ${id}?`,
        answerDocIds: [goldDoc(id)],
        goldAnswer: 'What it says.',
      }))
      writeFileSync(file, JSON.stringify({ questions }))
      return file
    })()
  const config = join(dir, 'rag-eval.config.ts')
  const fields = { corpus: TINY, goldenSet: golden, system, baseline: join(dir, 'baseline'), reports: join(dir, 'reports') }
  writeFileSync(config, `export default ${JSON.stringify(fields)}\n`)
  return { dir, config }
}

/** `vitest run --project eval <args>` as a user runs it (asynchronously: the service answers from this process). */
function vitest(config: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number | null; out: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [...EVAL_PROJECT_RUN, ...args], {
      env: evalProjectEnv({ RAG_EVAL_CONFIG: config, ...env }),
    })
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (out += d.toString()))
    child.on('error', fail)
    child.on('close', (code) => done({ code, out }))
  })
}

const failedCases = (out: string) => [...out.matchAll(/FAIL .*> \w+ questions > (q-\d+) \[/g)].map((m) => m[1]!).sort()
const baselineBytes = (dir: string) =>
  ['summary.json', 'questions.json'].map((f) => readFileSync(join(dir, 'baseline', f), 'utf8'))
/** The system error the service's 422 leaves on question `id`. */
const http422 = (id: string) => `${url} failed: ${id}: ${url} answered HTTP 422: {"detail":"question rejected"}`
const setFaults = (entries: [string[], Fault][]) => {
  faults.clear()
  for (const [list, fault] of entries) for (const id of list) faults.set(id, fault)
}

describe('a fault-injecting HTTP service under vitest', () => {
  it('-u refuses a run with system errors, the baseline unchanged; GATE=1 fails every run that did not measure the system', async () => {
    const { dir, config } = userProject({ http: { url } })
    const project = await loadProjectConfig({ configFile: config })
    // The runs below that are not Vitest's own behaviour are measured in this process, as the eval project's host
    // measures them (evaluate()), and decided as -u and the cases decide them (acceptBaseline, systemErrorRateCase).
    const inProcess = (env: Record<string, string> = {}) => evaluate(project, { tier: 'full', env })
    const accept = (report: Report) => acceptBaseline(report, baselineDirFor(project.baseline, report.config.mode), 'baseline')

    // A run with no faults, accepted as the baseline (a clean `vitest -u` is the examples' first step, through Vitest).
    setFaults([])
    expect(accept(await inProcess()).accepted).toBe(true)
    const good = baselineBytes(dir)
    expect(JSON.parse(good[0]!)).toMatchObject({ metrics: { recall: 1, mrr: 1 } })

    // 2 of 20 questions answer HTTP 422 (limit 0): -u refuses, naming them, and leaves the baseline byte-identical.
    const errored = ['q-03', 'q-11']
    setFaults([[errored, '422']])
    const refused = await vitest(config, ['-u'])
    expect(refused.code).toBe(1)
    expect(refused.out).toContain(
      `baseline not accepted: the system failed on 2 of 20 question(s), rate 0.1 > limit 0 (maxSystemErrorRate, EVAL_MAX_SYSTEM_ERROR_RATE): q-03, q-11;`,
    )
    expect(baselineBytes(dir)).toEqual(good)
    // A run that ended without an evaluation fails without GATE, in one case (the question and metric cases need the run).
    expect(refused.out.match(/FAIL .*the evaluation runs/g)).toHaveLength(1)
    expect(refused.out).toMatch(/Tests +1 failed \(1\)/)

    // The same errors and 3 more questions lose their answer: GATE=1 fails, the errors named apart from the 3 regressions.
    const lost = ['q-05', 'q-06', 'q-16']
    setFaults([
      [errored, '422'],
      [lost, 'lose'],
    ])
    const gated = await vitest(config, [], { GATE: '1' })
    expect(gated.code).toBe(1)
    expect(failedCases(gated.out)).toEqual([...errored, ...lost].sort())
    for (const id of errored)
      expect(gated.out).toContain(`${id}: not measured: the system under test failed on it: ${http422(id)}`)
    // Its evidence says nothing was ranked (it said the first ranked chunk did not fit the budget).
    expect(gated.out).toContain('(empty: nothing was ranked)')
    expect(gated.out).not.toContain('did not fit the budget')
    expect(gated.out).toMatch(
      /gate: FAILED, \d+ regression\(s\) against .*baseline\/ \(tolerance 0\.01\), and the system failed on 2 of 20/,
    )
    for (const id of lost) expect(gated.out).toMatch(new RegExp(`question ${id} +1\\.0000 +0\\.0000`))
    expect(gated.out).not.toMatch(/question q-03 |question q-11 /)

    // Without GATE, 14 of 20 (70%) erroring fails the rate case: never shown as passed.
    setFaults([[ids.slice(0, 14), '422']])
    const ungated = await vitest(config, [])
    expect(ungated.code).toBe(1)
    expect(ungated.out).toMatch(
      /FAIL .*system errors > the system under test failed on no more questions than maxSystemErrorRate allows/,
    )
    expect(ungated.out).toContain('the system failed on 14 of 20 question(s), rate 0.7 > limit 0')

    // Every question failing, even at maxSystemErrorRate 1: -u refuses (the baseline unchanged), and the rate case and
    // GATE=1 fail (the run measured nothing).
    setFaults([[ids, '422']])
    const nothing = await inProcess({ EVAL_MAX_SYSTEM_ERROR_RATE: '1' })
    const zeros = accept(nothing)
    expect(!zeros.accepted && zeros.refusal).toContain('baseline not accepted: the system failed on every question (20 of 20: ')
    expect(baselineBytes(dir)).toEqual(good)
    expect(systemErrorRateCase(nothing).passed).toBe(false)
    expect(runFailsGate(nothing)).toBe(true)
    expect(renderTerminalSummary(nothing)).toContain(
      'gate: FAILED, the system failed on every question (20 of 20), so the run measured nothing',
    )

    // At the limit (2 of 20, limit 0.1): accepted with a warning; the errored questions are not known misses. Their
    // cases fail as errors (a system error is never a pass); the gate passes, and no metric case reads them as misses.
    setFaults([[errored, '422']])
    const tolerated = await vitest(config, ['-u', '--reporter=verbose'], { EVAL_MAX_SYSTEM_ERROR_RATE: '0.1' })
    expect(tolerated.code).toBe(1)
    expect(tolerated.out).toMatch(/Tests +2 failed \| /)
    expect(failedCases(tolerated.out)).toEqual(errored)
    expect(tolerated.out).toContain('gate: passed, no regression beyond the tolerance 0.01 against')
    expect(tolerated.out).toContain(
      'baseline accepted with system errors: the system failed on 2 of 20 question(s), rate 0.1 within the limit 0.1',
    )
    const questions = JSON.parse(baselineBytes(dir)[1]!) as { systemErrors?: string[]; questions: { id: string }[] }
    expect(questions.systemErrors).toEqual(errored)
    expect(questions.questions.map((q) => q.id)).toEqual(ids.filter((id) => !errored.includes(id)))
  })
})

describe("a faulty in-process system module in the eval project's host", () => {
  it('the wrong shape and the call that never settles are named as system errors; the report is written despite close() throwing', async () => {
    // fixtures/systems/faulty-system.ts: g-1 answered, g-2 in the wrong shape, g-3 never settles, close() throws.
    // The host process Vitest starts, without Vitest: how the cases show system errors is the test above's.
    const { dir, config } = userProject(resolve('fixtures/systems/faulty-system.ts'), resolve('fixtures/golden/valid.json'))
    const reportFile = join(temp.make('faulty-handover-'), 'report.json')
    const { run, reportsWritten } = await evaluateInChild({
      options: { config, inline: { timeoutMs: 200 } },
      role: 'run',
      reportFile,
    })
    expect(run.ok && run.terminalSummary).toContain(
      'warning: the system faulty failed to close (the connection pool was already closed)',
    )
    expect(await reportsWritten).toBeNull()
    const report = readReport(join(dir, 'reports', 'latest.json'))
    expect(readFileSync(reportFile, 'utf8')).toBe(readFileSync(join(dir, 'reports', 'latest.json'), 'utf8'))
    expect(report.questions.map((q) => q.systemError)).toEqual([
      null,
      'faulty failed: g-2: the answer breaks the contract: ranked: missing; expected an array of chunk objects',
      'faulty failed: g-3: did not answer within 200 ms (timeoutMs)',
    ])
    // The rate case fails on them; each question's evidence (what its case shows, and attaches as an image) renders
    // without a TypeError.
    expect(systemErrorRateCase(report).passed).toBe(false)
    for (const question of report.questions)
      expect(evidenceImage(describeEvidence(question), `${question.id}: evidence`)).toContain('<svg')
  })
})
