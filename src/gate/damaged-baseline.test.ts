import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { loadProjectConfig } from '../config/load-project-config.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { renderRegressions } from '../report/render-gate.ts'
import type { Report } from '../contract/report-schema.ts'
import { evaluate } from '../run/evaluate.ts'
import { baselineFromReport, readBaseline, writeBaseline } from './baseline-files.ts'
import type { Baseline } from './baseline-schema.ts'
import { evaluateGate } from './gate.ts'

// A damaged baseline must fail the gate with what to do, never let a metric or a question through unwatched.

const REACCEPT = 're-accept the baseline with `npx vitest run --project eval -u`'
const ALL_METRICS =
  '"recall", "recall.single", "recall.multi", "recall.contradiction", "mrr", "ndcg10", "refusalRate", "faithfulness", "answerRelevancy", "coverage", "citationPrecision", "citationRecall"'
const temp = useTempDirs()

let accepted: Report
beforeAll(async () => {
  // The repository's offline run: recall 0.8879, as in baseline/summary.json.
  accepted = await evaluate(await loadProjectConfig(), { tier: 'full', env: {}, baselineRoot: null })
})

/** This run with recall fallen from 0.8879 to 0.6262 (plain data: only the summary number changes). */
const withRecallDrop = (report: Report): Report => ({ ...report, summary: { ...report.summary, recall: 0.6262 } })
const withMetrics = (baseline: Baseline, metrics: Record<string, number | null>): Baseline => ({
  ...baseline,
  summary: { ...baseline.summary, metrics },
})

describe('evaluateGate on a damaged baseline (plain data)', () => {
  it('the recall drop from 0.8879 to 0.6262 regresses against a sound baseline', () => {
    expect(accepted.summary.recall).toBe(0.8879)
    const gate = evaluateGate(withRecallDrop(accepted), baselineFromReport(accepted), 'baseline', 0.01)
    expect(gate.passed).toBe(false)
    expect(gate.regressions).toEqual([{ name: 'recall', baseline: 0.8879, current: 0.6262, delta: -0.2617 }])
    expect(gate.problems).toEqual([])
  })

  it('metrics: {} and questions: [] fail, naming every missing metric and the missing outcomes, even beside a real recall drop', () => {
    const gate = evaluateGate(
      withRecallDrop(accepted),
      { ...withMetrics(baselineFromReport(accepted), {}), questions: [] },
      'baseline',
      0.01,
    )
    expect(gate.passed).toBe(false)
    expect(gate.problems).toEqual([
      `baseline/summary.json: gated metrics ${ALL_METRICS} missing; ${REACCEPT}`,
      `baseline/questions.json: field "questions": no per-question outcomes (an accepted baseline holds one for every question of the golden set); ${REACCEPT}`,
    ])
    expect(renderRegressions(gate, 'text')).toBe(
      `gate: FAILED, the baseline at baseline/ cannot be trusted:\n${gate.problems.map((p) => `  - ${p}`).join('\n')}`,
    )
  })

  it('a gated metric missing fails, naming it', () => {
    const { mrr: _dropped, ...rest } = baselineFromReport(accepted).summary.metrics
    const gate = evaluateGate(accepted, withMetrics(baselineFromReport(accepted), rest), 'baseline', 0.01)
    expect(gate.passed).toBe(false)
    expect(gate.problems).toEqual([`baseline/summary.json: gated metric "mrr" missing; ${REACCEPT}`])
  })

  it('a misspelled gated metric fails as missing and as unknown', () => {
    const { mrr, ...rest } = baselineFromReport(accepted).summary.metrics
    const gate = evaluateGate(accepted, withMetrics(baselineFromReport(accepted), { ...rest, mrrr: mrr! }), 'baseline', 0.01)
    expect(gate.problems).toEqual([
      `baseline/summary.json: gated metric "mrr" missing; ${REACCEPT}`,
      `baseline/summary.json: unknown gated metric "mrrr" (misspelled?); the gated metrics are recall, recall.single, recall.multi, recall.contradiction, mrr, ndcg10, refusalRate, faithfulness, answerRelevancy, coverage, citationPrecision, citationRecall; ${REACCEPT}`,
    ])
  })

  it('a gated metric null in the baseline while this run computes it fails', () => {
    const gate = evaluateGate(
      accepted,
      withMetrics(baselineFromReport(accepted), { ...baselineFromReport(accepted).summary.metrics, mrr: null }),
      'baseline',
      0.01,
    )
    expect(gate.passed).toBe(false)
    expect(gate.problems).toEqual([
      `baseline/summary.json: gated metric "mrr" is null, but this run computes it (${accepted.summary.mrr}); ${REACCEPT}`,
    ])
  })

  it('names a question of the baseline that the golden set no longer has', () => {
    const baseline = baselineFromReport(accepted)
    const removed = { ...baseline.questions[0]!, id: 'q-999' }
    const gate = evaluateGate(accepted, { ...baseline, questions: [...baseline.questions, removed] }, 'baseline', 0.01)
    expect(gate.stale).toContain('in the baseline but no longer in the golden set (removed since): q-999')
  })
})

describe('readBaseline: damaged files are a DamagedBaseline the gate fails on (not an exception, so baseline:update can replace them)', () => {
  /** A baseline folder written from the accepted run, then edited. */
  function damaged(edit: (summary: Record<string, unknown>, questions: Record<string, unknown>) => void): string {
    const dir = temp.make('baseline-')
    writeBaseline(dir, baselineFromReport(accepted))
    const baseline = baselineFromReport(accepted)
    const summary = structuredClone(baseline.summary) as unknown as Record<string, unknown>
    const questions: Record<string, unknown> = { schemaVersion: 1, questions: structuredClone(baseline.questions) }
    edit(summary, questions)
    writeFileSync(join(dir, 'summary.json'), JSON.stringify(summary, null, 2))
    writeFileSync(join(dir, 'questions.json'), JSON.stringify(questions, null, 2))
    return dir
  }
  const metricsOf = (summary: Record<string, unknown>) => summary.metrics as Record<string, unknown>

  it('reads a sound baseline as written', () => {
    const dir = temp.make('baseline-')
    writeBaseline(dir, baselineFromReport(accepted))
    expect(readBaseline(dir)).toEqual(baselineFromReport(accepted))
  })

  it.each([
    [
      'a gated metric missing',
      (s: Record<string, unknown>) => delete metricsOf(s).mrr,
      ['summary.json: gated metric "mrr" missing'],
    ],
    [
      'a misspelled key',
      (s: Record<string, unknown>) => {
        metricsOf(s).ndcg_10 = metricsOf(s).ndcg10
        delete metricsOf(s).ndcg10
      },
      [
        'summary.json: gated metric "ndcg10" missing',
        'summary.json: unknown gated metric "ndcg_10" (misspelled?); the gated metrics are recall, recall.single, recall.multi, recall.contradiction, mrr, ndcg10, refusalRate, faithfulness, answerRelevancy, coverage, citationPrecision, citationRecall',
      ],
    ],
    ['metrics: {}', (s: Record<string, unknown>) => (s.metrics = {}), [`summary.json: gated metrics ${ALL_METRICS} missing`]],
    [
      'a metric that is not a number',
      (s: Record<string, unknown>) => (metricsOf(s).recall = '0.9'),
      ['summary.json: gated metric "recall": Invalid input: expected number, received string'],
    ],
  ])('%s', (_name, edit, problems) => {
    const dir = damaged((summary) => edit(summary))
    expect(readBaseline(dir)).toEqual({ damaged: problems.map((p) => `${dir}/${p}; ${REACCEPT}`) })
  })

  it('questions: [] and metrics: {} together', () => {
    const dir = damaged((summary, questions) => {
      summary.metrics = {}
      questions.questions = []
    })
    expect(readBaseline(dir)).toEqual({
      damaged: [
        `${dir}/summary.json: gated metrics ${ALL_METRICS} missing; ${REACCEPT}`,
        `${dir}/questions.json: field "questions": no per-question outcomes (an accepted baseline holds one for every question of the golden set); ${REACCEPT}`,
      ],
    })
  })

  it('questions.json not JSON, a folder, or missing', () => {
    const dir = temp.make('baseline-')
    writeBaseline(dir, baselineFromReport(accepted))
    writeFileSync(join(dir, 'questions.json'), '{ "schemaVersion": 1,\n  "questions": [ } \n')
    expect(readBaseline(dir)).toEqual({
      damaged: [expect.stringMatching(new RegExp(`^${dir}/questions\\.json:2:\\d+: invalid JSON: .*; re-accept the baseline`))],
    })
    const other = temp.make('baseline-')
    writeBaseline(other, baselineFromReport(accepted))
    rmSync(join(other, 'questions.json'))
    mkdirSync(join(other, 'questions.json'))
    expect(readBaseline(other)).toEqual({ damaged: [`${other}/questions.json: a folder, expected a file; ${REACCEPT}`] })
    rmSync(join(other, 'questions.json'), { recursive: true })
    expect(readBaseline(other)).toEqual({ damaged: [`${other}/questions.json: missing; ${REACCEPT}`] })
  })

  it('the gate fails on it and names each problem', () => {
    const dir = damaged((summary) => delete metricsOf(summary).mrr)
    const gate = evaluateGate(withRecallDrop(accepted), readBaseline(dir), dir, 0.01)
    expect(gate).toMatchObject({
      baseline: dir,
      passed: false,
      metrics: [],
      problems: [`${dir}/summary.json: gated metric "mrr" missing; ${REACCEPT}`],
    })
  })
})
