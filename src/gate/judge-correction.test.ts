import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { HumanLabel } from '../calibration/human-labels-schema.ts'
import { judgeCorrectedRates } from '../calibration/judge-corrected-rates.ts'
import { loadHumanLabels } from '../calibration/load-human-labels.ts'
import { loadProjectConfig } from '../config/load-project-config.ts'
import type { MetricVerdict } from '../contract/gate-schema.ts'
import type { JudgeCorrectedRate, Report } from '../contract/report-schema.ts'
import { evaluate } from '../run/evaluate.ts'
import { baselineFromReport } from './baseline-files.ts'
import { evaluateGate } from './gate.ts'
import { correctedVerdict } from './judge-correction.ts'

const rate = (estimate: number, low: number, high: number, rectifier: number): JudgeCorrectedRate => ({
  judgeMean: round(estimate + rectifier),
  estimate,
  interval: { low, high, method: 'prediction-powered' },
  rectifier,
  questions: 100,
  labelled: 30,
  means: 'test',
  reason: null,
})
const round = (value: number) => Math.round(value * 1e4) / 1e4
const reportWith = (correction: 'none' | 'ppi', faithfulness: JudgeCorrectedRate) =>
  ({
    config: { judgeCorrection: correction },
    calibration: { judgeCorrected: { faithfulness, coverage: faithfulness, refusalCorrectness: faithfulness } },
  }) as unknown as Report
// The judge's faithfulness fell from 0.9 to 0.88: beyond the tolerance 0.01, so regressed on the judge's own means.
const verdict = { name: 'faithfulness', status: 'regressed', baseline: 0.9, current: 0.88, delta: -0.02 } as MetricVerdict

const project = await loadProjectConfig()
let acceptedRun: Promise<Report> | undefined
/** The repository's offline run, evaluated once for the tests that need it. */
const acceptedReport = () => (acceptedRun ??= evaluate(project, { tier: 'full', env: {} }))

describe('correctedVerdict (judgeCorrection ppi)', () => {
  it('leaves the verdict alone under none, and for a metric without a corrected estimate', () => {
    expect(correctedVerdict(verdict, reportWith('none', rate(0.78, 0.7, 0.78, 0.1)), 0.01)).toBe(verdict)
    const relevancy = { ...verdict, name: 'answerRelevancy' }
    expect(correctedVerdict(relevancy, reportWith('ppi', rate(0.78, 0.7, 0.78, 0.1)), 0.01)).toBe(relevancy)
  })
  it('puts the baseline on the corrected scale and regresses only when the whole interval lies below it minus the tolerance', () => {
    // Baseline 0.9 - rectifier 0.1 = 0.8; the bar is 0.8 - 0.01 = 0.79.
    expect(correctedVerdict(verdict, reportWith('ppi', rate(0.78, 0.7, 0.86, 0.1)), 0.01)).toMatchObject({
      status: 'held',
      judgeCorrection: { estimate: 0.78, baseline: 0.8, interval: { low: 0.7, high: 0.86 } },
    })
    expect(correctedVerdict(verdict, reportWith('ppi', rate(0.74, 0.7, 0.78, 0.1)), 0.01).status).toBe('regressed')
    // Improved when the judge's mean rose (0.9 to 0.92) and the whole interval lies above 0.8 + 0.01.
    const rose = { ...verdict, status: 'improved', current: 0.92, delta: 0.02 } as MetricVerdict
    expect(correctedVerdict(rose, reportWith('ppi', rate(0.85, 0.82, 0.88, 0.1)), 0.01).status).toBe('improved')
  })
  it('blocks the gate on a corrected regression even while the judge is advisory', async () => {
    const accepted = await acceptedReport()
    const acceptedFaithfulness = accepted.summary.faithfulness!
    const current: Report = {
      ...accepted,
      config: { ...accepted.config, judgeCorrection: 'ppi' },
      summary: { ...accepted.summary, faithfulness: acceptedFaithfulness - 0.2 },
      calibration: {
        ...accepted.calibration!,
        advisory: true,
        reason: 'agrees on 67%',
        // The judge runs 0.2 above people: the corrected baseline is acceptedFaithfulness - 0.2, and the interval lies well below.
        judgeCorrected: {
          ...accepted.calibration!.judgeCorrected!,
          faithfulness: rate(
            round(acceptedFaithfulness - 0.4),
            round(acceptedFaithfulness - 0.45),
            round(acceptedFaithfulness - 0.35),
            0.2,
          ),
        },
      },
    }
    const gate = evaluateGate(current, baselineFromReport(accepted), 'baseline', 0.01)
    expect(gate.passed).toBe(false)
    expect(gate.regressions.map((r) => r.name)).toEqual(['faithfulness'])
    expect(gate.advisory).toEqual([])
    expect(gate.advisoryReason).toBe('agrees on 67%')
  })
})

describe('the corrected judge on labels that push it out of [0, 1] (fault sweep)', () => {
  /** Labels of the questions `ids` only, with `coverage` (answer as the run gave it, so current). */
  const labelsWith = (accepted: Report, ids: readonly string[], coverage: number): HumanLabel[] =>
    ids.map((id) => ({
      id,
      label: 'supported' as const,
      note: 'test',
      who: 'test',
      when: '2026-12-03',
      answer: accepted.questions.find((q) => q.id === id)!.answer!,
      coverage,
    }))
  /** The run gated against itself (nothing changed) with judgeCorrection 'ppi' and these labels' corrected rates. */
  const unchangedGate = (accepted: Report, labels: HumanLabel[]) => {
    const current: Report = {
      ...accepted,
      config: { ...accepted.config, judgeCorrection: 'ppi' },
      calibration: { ...accepted.calibration!, judgeCorrected: judgeCorrectedRates(accepted.questions, labels) },
    }
    return { current, gate: evaluateGate(current, baselineFromReport(accepted), 'baseline', 0.01) }
  }

  it.each([
    ['3 labels of coverage 1 on answers the judge scored 0', 0, 1],
    ['the mirror: 3 labels of coverage 0 on answers the judge scored 1', 1, 0],
  ] as const)(
    '%s: the estimate and its interval stay in [0, 1], in order, and nothing changed holds',
    async (_, judged, said) => {
      const accepted = await acceptedReport()
      const ids = accepted.questions
        .filter((q) => q.coverage === judged && q.answer !== null)
        .slice(0, 3)
        .map((q) => q.id)
      expect(ids).toHaveLength(3)
      const { current, gate } = unchangedGate(accepted, labelsWith(accepted, ids, said))
      const rate = current.calibration!.judgeCorrected!.coverage
      expect(rate.estimate).toBeGreaterThanOrEqual(0)
      expect(rate.estimate).toBeLessThanOrEqual(1)
      expect(rate.interval!.low).toBeLessThanOrEqual(rate.estimate!)
      expect(rate.interval!.high).toBeGreaterThanOrEqual(rate.estimate!)
      expect(rate.interval!.low).toBeGreaterThanOrEqual(0)
      expect(rate.interval!.high).toBeLessThanOrEqual(1)
      const verdict = gate.metrics.find((m) => m.name === 'coverage')!
      expect(verdict).toMatchObject({
        delta: 0,
        status: 'held',
        judgeCorrection: { estimate: rate.estimate, baseline: rate.estimate },
      })
      expect(gate.passed).toBe(true)
    },
  )

  it('gives no direction where the judge mean did not move, even with the whole interval off the corrected baseline', () => {
    // Rectifier -0.5 puts the corrected baseline at 0.9 + 0.5 = 1.4, clipped to 1; the interval 0.6 to 0.8 lies below it.
    const unchanged = { ...verdict, status: 'held', current: 0.9, delta: 0 } as MetricVerdict
    const result = correctedVerdict(unchanged, reportWith('ppi', rate(0.7, 0.6, 0.8, -0.5)), 0.01)
    expect(result).toMatchObject({ status: 'held', judgeCorrection: { baseline: 1 } })
  })
})

describe('the human labels file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'labels-'))
  const original = JSON.parse(readFileSync(project.humanLabels, 'utf8')) as { labels: HumanLabel[] }
  /** The repository's labels file with `extra` labels appended, written pretty-printed as the tool writes it. */
  const fileWith = (name: string, extra: HumanLabel[]) => {
    const file = join(dir, name)
    writeFileSync(file, JSON.stringify({ ...original, labels: [...original.labels, ...extra] }, null, 2) + '\n')
    return file
  }
  const ids = new Set(original.labels.map((label) => label.id))
  // Each label pretty-printed spans 8 lines plus its opening brace's own; the labels array opens after the sample.
  const lineOfLabel = (file: string, index: number) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .findIndex((line, i, lines) => line === '    {' && lines.slice(0, i).filter((l) => l === '    {').length === index) + 1

  it('refuses a question labelled twice, naming the file, both lines and the question', () => {
    const first = original.labels[0]!
    const file = fileWith('twice.json', [{ ...first, label: first.label === 'supported' ? 'unsupported' : 'supported' }])
    const second = original.labels.length
    expect(() => loadHumanLabels(file, ids)).toThrow(
      `${file}:${lineOfLabel(file, second)}: question "${first.id}" is labelled twice (first at line ${lineOfLabel(file, 0)}); keep one label per question`,
    )
  })

  it('names a label of a question not in the golden set, with its file and line, and keeps the rest', () => {
    const file = fileWith('stale.json', [{ ...original.labels[0]!, id: 'q-gone' }])
    const loaded = loadHumanLabels(file, ids)!
    expect(loaded.labels).toHaveLength(original.labels.length + 1)
    expect(loaded.warnings).toEqual([
      `${file}:${lineOfLabel(file, original.labels.length)}: human label of question "q-gone", which is not in the golden set: left out; delete the label`,
    ])
  })
})
