import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadProjectConfig } from '../config/load-project-config.ts'
import type { Report } from '../contract/report-schema.ts'
import { renderMarkdown } from '../report/render-markdown.ts'
import { renderTerminalSummary } from '../report/render-terminal.ts'
import { reportOf } from '../run/assemble-report.ts'
import { measure } from '../run/evaluate.ts'
import type { Measurement } from '../run/measurement.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { decideBaselineAcceptance } from './accept-decision.ts'
import { acceptBaseline, baselineFromReport, readBaseline, writeBaseline } from './baseline-files.ts'
import type { Baseline } from './baseline-schema.ts'
import { evaluateGate } from './gate.ts'
import { runFailsGate } from './run-failures.ts'
import { systemErrorRateCase } from './system-error-failure.ts'
import { failingOn, HTTP_422, missingOn } from './testing/system-error-runs.ts'

const temp = useTempDirs()
const project = await loadProjectConfig()
let good: Measurement
const reportOfRun = (measurement: Measurement): Report => reportOf(project, measurement, null)
/** The first `n` answerable questions the good run hits, then the next `m`: the two groups the tests below fail. */
let hits: string[]

beforeAll(async () => {
  good = await measure(project, { tier: 'retrieval', env: {} })
  hits = good.questions.filter((q) => q.type !== 'none' && q.hit).map((q) => q.id)
})

describe('a baseline is accepted only from a run that measured the system', () => {
  it('10 questions answering HTTP 422 (limit 0): refused, naming them; the baseline stays byte-identical', () => {
    const dir = temp.make('baseline-')
    writeBaseline(dir, baselineFromReport(reportOfRun(good)))
    const before = ['summary.json', 'questions.json'].map((f) => readFileSync(join(dir, f)))
    const errored = hits.slice(0, 10)
    const run = reportOfRun(failingOn(good, errored))
    expect(run.summary).toMatchObject({ systemErrors: 10, systemErrorRate: 0.0833 })
    const decision = acceptBaseline(run, dir, 'baseline')
    expect(decision).toEqual({
      accepted: false,
      refusal: `baseline not accepted: the system failed on 10 of 120 question(s), rate 0.0833 > limit 0 (maxSystemErrorRate, EVAL_MAX_SYSTEM_ERROR_RATE): ${errored.join(', ')}; a baseline must measure the system: fix these errors (latest.md shows each) or raise maxSystemErrorRate, then run \`npx vitest run --project eval -u\` again; baseline/ left as it was`,
    })
    expect(['summary.json', 'questions.json'].map((f) => readFileSync(join(dir, f)))).toEqual(before)
    // Next: those 10 and 13 more lost their context; against the good baseline, kept, the gate fails on all 13.
    const regressed = reportOfRun(failingOn(missingOn(good, hits.slice(10, 23)), errored))
    const gate = evaluateGate(regressed, readBaseline(dir), 'baseline', 0.01)
    expect(gate.passed).toBe(false)
    expect(gate.regressions.filter((r) => r.name.startsWith('question ')).map((r) => r.name)).toEqual(
      hits.slice(10, 23).map((id) => `question ${id}`),
    )
  })

  it('every question failing: refused even when maxSystemErrorRate is 1 (a baseline of zeros measures nothing)', () => {
    const all = good.questions.map((q) => q.id)
    const decision = decideBaselineAcceptance(reportOfRun(failingOn(good, all, { limit: 1 })), 'baseline')
    expect(decision).toEqual({
      accepted: false,
      refusal: `baseline not accepted: the system failed on every question (120 of 120: ${all.slice(0, 10).join(', ')} and 110 more), so the run measured nothing; first error: ${HTTP_422}; baseline/ left as it was`,
    })
  })

  it('at the limit: accepted with a warning naming them; they are left out of the baseline, never known misses', () => {
    const errored = hits.slice(0, 6)
    // 6 of 120 = 0.05: exactly the limit is allowed.
    const run = reportOfRun(failingOn(good, errored, { limit: 0.05 }))
    const dir = temp.make('baseline-')
    const decision = acceptBaseline(run, dir, 'baseline')
    expect(decision.accepted && decision.warning).toBe(
      `baseline accepted with system errors: the system failed on 6 of 120 question(s), rate 0.05 within the limit 0.05 (maxSystemErrorRate, EVAL_MAX_SYSTEM_ERROR_RATE): ${errored.join(', ')}; the baseline has no verdict on them (they are not known misses): accept again once the system answers them`,
    )
    const written = readBaseline(dir) as Baseline
    expect(written.systemErrors).toEqual([...errored].sort())
    expect(written.questions.map((q) => q.id).filter((id) => errored.includes(id))).toEqual([])
    expect(written.questions).toHaveLength(114)
    // A later run that answers them: not known misses, not regressions; the rest holds.
    const gate = evaluateGate(reportOfRun(good), written, 'baseline', 0.01)
    expect(gate.questions.filter((q) => errored.includes(q.id)).map((q) => q.status)).toEqual(errored.map(() => 'not-gated'))
    expect(gate.questions.filter((q) => q.status === 'known-miss').map((q) => q.id)).not.toEqual(expect.arrayContaining(errored))
    // Metrics compared over the 114 questions both measured: the 6 errors moved none of them.
    expect(gate.metrics.find((m) => m.name === 'recall')).toMatchObject({ status: 'held', delta: 0 })
    expect(gate.passed).toBe(true)
  })

  it('a run without errors is accepted without a warning, and its baseline is unchanged by the rule', () => {
    const report = reportOfRun(good)
    expect(decideBaselineAcceptance(report, 'baseline')).toEqual({
      accepted: true,
      baseline: baselineFromReport(report),
      warning: null,
    })
    expect('systemErrors' in baselineFromReport(report)).toBe(false)
  })
})

describe('a system error is never a miss', () => {
  it('errors on questions the baseline passed, above the limit: named apart from regressions, the gate fails on the rate', () => {
    const baseline = baselineFromReport(reportOfRun(good))
    const errored = hits.slice(0, 2)
    const run = reportOfRun(failingOn(good, errored))
    const gate = evaluateGate(run, baseline, 'baseline', 0.01)
    expect(gate.regressions).toEqual([])
    expect(gate.passed).toBe(false)
    expect(gate.questions.filter((q) => q.status === 'system-error')).toEqual(
      errored.map((id) => ({ id, status: 'system-error', baselinePassed: true, currentPassed: null })),
    )
    expect(gate.systemErrors).toEqual({
      errors: 2,
      questions: 120,
      rate: 0.0167,
      limit: 0,
      exceeded: true,
      unmeasured: errored.map((id) => ({ id, error: HTTP_422, baselinePassed: true })),
    })
    // The errors move no metric: compared over the 118 questions measured in both.
    expect(gate.metrics.filter((m) => m.status !== 'held').map((m) => m.name)).toEqual(
      gate.metrics.filter((m) => m.status === 'not-comparable').map((m) => m.name),
    )
    expect(runFailsGate({ ...run, gate })).toBe(true)
    const failedLine = `gate: FAILED, the system failed on 2 of 120 question(s), rate 0.0167 > limit 0 (maxSystemErrorRate, EVAL_MAX_SYSTEM_ERROR_RATE): the run did not measure the system (no regression beyond the tolerance 0.01 among the questions it measured, against baseline/)`
    const errorLines = [
      `system errors (not misses, not regressions; left out of the metrics' comparisons): the system failed on 2 of 120 question(s), rate 0.0167 > limit 0 (maxSystemErrorRate, EVAL_MAX_SYSTEM_ERROR_RATE): the gate fails on it`,
      ...errored.map((id) => `  - ${id} (passed in the baseline): ${HTTP_422}`),
    ].join('\n')
    const terminal = renderTerminalSummary({ ...run, gate })
    expect(terminal).toContain(errorLines)
    expect(terminal.endsWith(failedLine)).toBe(true)
    expect(terminal).toContain(
      `system errors (2, not measured: maxSystemErrorRate 0): ${errored.map((id) => `${id} [${run.questions.find((q) => q.id === id)!.type}] ${HTTP_422}`).join('\n  ')}`,
    )
    // Not listed among the misses.
    for (const id of errored) expect(terminal).not.toMatch(new RegExp(`misses \\(\\d+\\):[^\\n]*\\b${id} \\[`))
    const markdown = renderMarkdown({ ...run, gate })
    expect(markdown).toContain(errorLines)
    expect(markdown).toContain(failedLine)
    expect(markdown).toContain('- not measured: the system failed on it, so its checks (context hit) had nothing to check')
  })

  it('within the limit: the gate passes, names the unmeasured questions and what the baseline said of them', () => {
    const baseline = baselineFromReport(reportOfRun(good))
    const errored = hits.slice(0, 2)
    const run = reportOfRun(failingOn(good, errored, { limit: 0.02 }))
    const gate = evaluateGate(run, baseline, 'baseline', 0.01)
    expect(gate.passed).toBe(true)
    expect(gate.systemErrors?.exceeded).toBe(false)
    expect(
      renderTerminalSummary({ ...run, gate })
        .split('\n')
        .at(-1),
    ).toBe(
      'gate: passed, no regression beyond the tolerance 0.01 against baseline/; 2 question(s) not measured (system errors within maxSystemErrorRate 0.02), listed above',
    )
  })

  it('every question failing fails the rate case and the gate even at maxSystemErrorRate 1, and no metric reads it as misses', () => {
    const all = good.questions.map((q) => q.id)
    const run = reportOfRun(failingOn(good, all, { limit: 1 }))
    const everything =
      'the system failed on every question (120 of 120), so the run measured nothing, whatever the limit 1 allows (maxSystemErrorRate, EVAL_MAX_SYSTEM_ERROR_RATE)'
    expect(systemErrorRateCase(run)).toEqual({
      passed: false,
      message: `${everything}: ${all.slice(0, 10).join(', ')} and 110 more; the run did not measure the system (latest.md shows each error)`,
    })
    const report = { ...run, gate: evaluateGate(run, baselineFromReport(reportOfRun(good)), 'baseline', 0.01) }
    expect(report.gate.passed).toBe(false)
    expect(report.gate.systemErrors).toMatchObject({ errors: 120, questions: 120, rate: 1, limit: 1, exceeded: true })
    // Not a regression of any metric (the errors are no misses): nothing was measured to compare.
    expect(report.gate.regressions).toEqual([])
    expect(report.gate.metrics.find((m) => m.name === 'recall')).toMatchObject({
      status: 'not-comparable',
      current: null,
      reason: 'no question measured: the system failed on every one',
    })
    expect(runFailsGate(report)).toBe(true)
    expect(renderTerminalSummary(report)).toContain(
      `gate: FAILED, ${everything}: the run did not measure the system (no regression beyond the tolerance 0.01 among the questions it measured, against baseline/)`,
    )
  })

  it('the rate case fails above the limit whatever GATE says: 70% of the questions errored', () => {
    const errored = good.questions.slice(0, 84).map((q) => q.id)
    const verdict = systemErrorRateCase(reportOfRun(failingOn(good, errored)))
    expect(verdict).toEqual({
      passed: false,
      message: `the system failed on 84 of 120 question(s), rate 0.7 > limit 0 (maxSystemErrorRate, EVAL_MAX_SYSTEM_ERROR_RATE): ${errored.slice(0, 10).join(', ')} and 74 more; the run did not measure the system (latest.md shows each error)`,
    })
    expect(systemErrorRateCase(reportOfRun(good))).toEqual({ passed: true, message: 'the system answered every question' })
  })
})
