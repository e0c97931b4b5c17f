import { describe, expect, inject, it, type TestContext } from 'vitest'
import { resolve } from 'node:path'
import { ACCEPT_BASELINE, HOW_TO_CREATE_BASELINE, baselineDirFor } from '../gate/baseline-location.ts'
import { METRICS, type MetricTable } from '../contract/metrics/metric-table.ts'
import { gatedEntries, summaryValue } from '../contract/metrics/metric.ts'
import { systemErrorRateCase } from '../gate/system-error-failure.ts'
import { SHARD_WITNESS_META } from '../shard/shard-witness-meta.ts'
import { AGREEMENT_THRESHOLD } from '../calibration/agreement.ts'
import { questionPassed, questionThresholds, type QuestionThresholds } from '../gate/question-checks.ts'
import { QUESTION_TYPES } from '../contract/question-types.ts'
import type { QuestionOutcome, Report } from '../contract/report-schema.ts'
import type { GateResult, MetricVerdict } from '../contract/gate-schema.ts'
import { formatInterval, formatMetric, formatPValue } from '../common/format-table.ts'
import { caseNote, planQuestionCase, questionCaseName, trialsNote, type CasePlan } from './question-case-plan.ts'
import { readReportsWritten, readSharedRun, type SharedRun } from './shared-run.ts'
// The matchers' types (the module augmentation of vitest's Assertion), without loading the schema checks.
import type {} from './matchers/index.ts'
import { ragMatchersWith } from './matchers/rag-matchers-with.ts'
import { describeEvidence } from './matchers/evidence.ts'
import { evidenceImage } from '../charts/evidence-image.ts'
import { metricIntervalsChart, metricRows } from '../charts/metric-intervals-chart.ts'
import { comparisonCharts, runCharts, type Chart } from '../charts/run-charts.ts'
import { deltaChart } from '../charts/comparison-charts.ts'

/** An SVG as an annotation's attachment: Vitest UI (live and the static HTML report) shows it as an image. */
function svgAttachment(svg: string): { contentType: string; body: string; bodyEncoding: 'utf-8' } {
  return { contentType: 'image/svg+xml', body: svg, bodyEncoding: 'utf-8' }
}

/** Each chart as its own annotation, named by its title and file under reports/charts/. */
async function annotateCharts(annotate: TestContext['annotate'], charts: readonly Chart[]): Promise<void> {
  for (const chart of charts) await annotate(`${chart.title} (charts/${chart.file})`, svgAttachment(chart.render()))
}

/** Outcomes of this run's own report: made here and never edited, so unchecked (the worker loads no schema library). */
const reportOutcomes = new WeakSet<object>()
expect.extend(
  ragMatchersWith((matcher, received) => {
    if (typeof received === 'object' && received !== null && reportOutcomes.has(received)) return received as QuestionOutcome
    throw new TypeError(`${matcher}: the eval project's cases assert on the outcomes of this run's report only`)
  }),
)

/**
 * The run global setup shares, awaited (Vitest starts this worker while the evaluation runs); null outside
 * the eval project, or when its folder cannot be read (a failing case says why).
 */
export async function sharedRun(): Promise<SharedRun | null> {
  const provided = inject('evaluation')
  try {
    if (provided === undefined)
      throw new Error('no shared evaluation: run these files in the eval project (its globalSetup runs the evaluation)')
    return await readSharedRun(provided, true)
  } catch (error) {
    it('the evaluation runs', () => {
      throw error
    })
    return null
  }
}

/** The runs whose failure already has its case: the question and metric cases both ask, one case tells it. */
const failureShown = new WeakSet<SharedRun>()

type FinishedRun = SharedRun & { ok: true }

/** The measured run, or one failing case when the evaluation crashed: a broken evaluation is never a pass. */
function finishedEvaluation(run: SharedRun): FinishedRun | null {
  if (!run.ok) {
    if (!failureShown.has(run)) {
      failureShown.add(run)
      it('the evaluation runs', () => {
        throw new Error(run.error)
      })
    }
    return null
  }
  return run
}

/** The gate's question checks (gate/question-checks.ts) as assertions; a matcher the run cannot decide skips the case. */
function assertQuestion(outcome: QuestionOutcome, thresholds: QuestionThresholds): void {
  if (outcome.type === 'none') {
    expect(outcome).toRefuse()
    return
  }
  expect(outcome).toHitContext(outcome.answerDocIds, {
    mode: outcome.type,
    ...(outcome.governingDocId ? { governingDocId: outcome.governingDocId } : {}),
  })
  if (outcome.answer === null) return
  expect(outcome).not.toRefuse()
  // While the judge is advisory (agreement with human labels too low), its verdicts do not fail a case.
  if (!thresholds.judgeBlocking) return
  expect(outcome).toBeFaithful({ min: thresholds.minFaithfulness })
  expect(outcome).toCoverGoldAnswer({ min: thresholds.minCoverage })
}

/** Runs a known miss's checks with no stack on their error: it.fails shows none, and it is costly (docs/scaling.md). */
function withoutStack(run: () => void): void {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    run()
  } finally {
    Error.stackTraceLimit = limit
  }
}

/** One case per golden question, `<id> [<type>] <question>`, grouped by type, each carrying its evidence. */
export function defineQuestionCases(run: SharedRun): void {
  const evaluation = finishedEvaluation(run)
  if (!evaluation) return
  const { report } = evaluation
  const verdicts = new Map(report.gate?.questions.map((v) => [v.id, v]))
  const thresholds = questionThresholds(report)
  for (const outcome of report.questions) reportOutcomes.add(outcome)
  for (const type of QUESTION_TYPES) {
    const outcomes = report.questions.filter((q) => q.type === type)
    if (outcomes.length === 0) continue
    describe(`${type} questions`, () => {
      for (const outcome of outcomes) {
        const verdict = verdicts.get(outcome.id)
        // Asked in trials, the gate's verdict (its pass rate against the baseline's) decides, else the majority of trials.
        const passed = outcome.trials && verdict ? verdict.currentPassed : questionPassed(outcome, thresholds)
        // A system error is never a miss: the case fails as an error, whatever the baseline says.
        const planned: CasePlan =
          outcome.systemError === null
            ? planQuestionCase(verdict, passed, evaluation, report.gate?.policy)
            : { kind: 'assert', notes: [] }
        const trialNote = trialsNote(outcome)
        const plan = trialNote === null ? planned : { ...planned, notes: [...planned.notes, trialNote] }
        const body = ({ annotate }: TestContext) => {
          // One annotation at most (each is a round trip to the main process); a plain pass has none: latest.md holds it.
          const note = caseNote(outcome, plan.notes, passed)
          // A miss's evidence also goes as an image: Vitest UI runs a message's lines into one paragraph, an image keeps them.
          if (note && passed === false)
            void annotate(
              note.message,
              note.type,
              svgAttachment(evidenceImage(describeEvidence(outcome), `${outcome.id}: evidence`)),
            )
          else if (note) void annotate(note.message, note.type)
          // A regression without GATE=1 is reported (annotation above), not failed.
          if (outcome.systemError !== null)
            throw new Error(`${outcome.id}: not measured: the system under test failed on it: ${outcome.systemError}`)
          if (plan.kind === 'report-only') expect(passed).toBe(false)
          else if (outcome.trials) {
            if (passed === false) throw new Error(`${outcome.id}: ${trialNote?.message ?? 'failed its trials'}`)
          } else if (plan.kind === 'expected-failure') withoutStack(() => assertQuestion(outcome, thresholds))
          else assertQuestion(outcome, thresholds)
        }
        const name = questionCaseName(outcome)
        if (plan.kind === 'expected-failure') it.fails(name, body)
        else it(name, body)
      }
    })
  }
}

function notComputedReason(report: Report, path: string): string {
  return report.summary.notComputed[path] ?? 'not computed in this run'
}

/** The run's cases: its reports written, the baseline, the judge's calibration and errors, system errors, each gated metric. */
export function defineMetricCases(run: SharedRun): void {
  const evaluation = finishedEvaluation(run)
  if (!evaluation) return
  defineReportsCase(evaluation)
  defineBaselineCase(evaluation)
  defineCalibrationCase(evaluation)
  defineJudgeErrorsCase(evaluation)
  defineSystemErrorsCase(evaluation)
  defineGatedMetricCases(evaluation)
}

/** The reports are written while the cases run; this case waits for them and attaches the run's charts. */
function defineReportsCase(evaluation: FinishedRun): void {
  const { report } = evaluation
  describe('reports', () => {
    // The evaluation is handed over before its reports are written: they are written while the cases run.
    it('the run’s reports are written (latest.json, latest.md, attribution.jsonl, contexts.jsonl, charts/)', async ({
      annotate,
    }) => {
      const unwritten = await readReportsWritten(inject('evaluation'))
      if (unwritten !== null) throw new Error(unwritten)
      await annotateCharts(annotate, runCharts(report))
    })
  })
}

/** The baseline exists, can be trusted, and was measured under this run's conditions. */
function defineBaselineCase(evaluation: FinishedRun): void {
  const { report } = evaluation
  const gate = report.gate
  describe('baseline', () => {
    it('baseline/ exists and was measured under this run’s conditions', async ({ annotate, skip }) => {
      if (!gate || gate.baseline === null) {
        if (!evaluation.gate) skip(`no baseline: ${HOW_TO_CREATE_BASELINE}`)
        throw new Error(`GATE=1 needs a baseline and there is none: ${HOW_TO_CREATE_BASELINE}`)
      }
      // A damaged baseline (a gated metric missing, misspelled or null, no per-question outcomes) gates nothing: it fails.
      if (gate.problems.length > 0)
        throw new Error(`the baseline at ${gate.baseline}/ cannot be trusted:\n${gate.problems.join('\n')}`)
      if (evaluation.baselineUpdated) await annotate('baseline/ was rewritten from this run (vitest -u)')
      if (evaluation.baselineWarning) await annotate(evaluation.baselineWarning, 'warning')
      for (const difference of gate.stale) await annotate(`stale baseline: ${difference}`, 'warning')
      expect(resolve(evaluation.projectRoot, gate.baseline)).toBe(baselineDirFor(evaluation.baselineRoot, report.config.mode))
    })
  })
}

/** A judge below minJudgeAgreement (or never checked by people) is advisory: its metrics may not block the gate. */
function defineCalibrationCase(evaluation: FinishedRun): void {
  const { report } = evaluation
  const gate = report.gate
  describe('judge calibration', () => {
    // The knob minJudgeAgreement this run held the judge to (absent in older reports: its default).
    const minAgreement = report.calibration?.minAgreement ?? AGREEMENT_THRESHOLD
    it(`the judge agrees with human labels at least ${Math.round(minAgreement * 100)}% of the time, or its metrics are advisory`, async ({
      annotate,
      skip,
    }) => {
      const calibration = report.calibration
      if (!calibration) return skip('no answers were judged in this run (retrieval tier)')
      const agreement = calibration.agreement
      await annotate(
        `judge ${calibration.judge}: ${calibration.reason}${calibration.kappa === null ? '' : `, kappa ${calibration.kappa}`}`,
        calibration.advisory ? 'warning' : 'notice',
      )
      for (const d of calibration.disagreements)
        await annotate(`${d.id}: human ${d.human}, judge ${d.judge}: ${d.disputed.join(' | ')}`, 'warning')
      expect(calibration.advisory).toBe(agreement === null || agreement < minAgreement)
      // Only a metric judged on its corrected estimate (judgeCorrection 'ppi', docs/judging.md) may block while advisory.
      const corrected = (name: string) => gate?.metrics.find((m) => m.name === name)?.judgeCorrection !== undefined
      if (calibration.advisory)
        expect(
          gate?.regressions.filter(
            (r) => gatedEntries(METRICS).find((m) => m.name === r.name)?.judgeDerived && !corrected(r.name),
          ) ?? [],
        ).toEqual([])
    })
  })
}

/** The judge failed on no more answers than maxJudgeErrorRate allows. */
function defineJudgeErrorsCase(evaluation: FinishedRun): void {
  const { report } = evaluation
  describe('judge errors', () => {
    it('the judge failed on no more answers than maxJudgeErrorRate allows', async ({ annotate, skip }) => {
      const { judgeErrorRate, judgeErrors } = report.summary
      if (judgeErrorRate === null) return skip(notComputedReason(report, 'judgeErrorRate'))
      for (const q of report.questions) {
        for (const e of q.generation?.judgeErrors ?? []) await annotate(`${q.id}: ${e.message}`, 'warning')
      }
      const limit = report.config.maxJudgeErrorRate
      const message = `judge errors on ${judgeErrors} answer(s), rate ${judgeErrorRate} > limit ${limit} (EVAL_MAX_JUDGE_ERROR_RATE)`
      if (judgeErrorRate > limit && !evaluation.gate) {
        await annotate(`${message}; GATE=1 fails the run on it`, 'error')
        return
      }
      expect(judgeErrorRate, message).toBeLessThanOrEqual(limit)
    })
  })
}

/** The system under test failed on no more questions than maxSystemErrorRate allows. */
function defineSystemErrorsCase(evaluation: FinishedRun): void {
  const { report } = evaluation
  describe('system errors', () => {
    // Fails above the limit with or without GATE: a run that did not measure the system is never a pass.
    it('the system under test failed on no more questions than maxSystemErrorRate allows', async ({ annotate }) => {
      for (const q of report.questions) if (q.systemError !== null) await annotate(`${q.id}: ${q.systemError}`, 'error')
      const verdict = systemErrorRateCase(report)
      expect(verdict.passed, verdict.message).toBe(true)
    })
  })
}

/** One case per gated metric asserting toNotRegressFrom the baseline, with the gate's verdict and its chart. */
function defineGatedMetricCases(evaluation: FinishedRun, table: MetricTable = METRICS): void {
  const { report } = evaluation
  const gate = report.gate
  describe('gated metrics', () => {
    for (const metric of gatedEntries(table)) {
      it(`${metric.name} does not regress`, async ({ annotate, skip }) => {
        if (summaryValue(report.summary, metric.path) === null) return skip(notComputedReason(report, metric.path))
        const verdict = gate?.metrics.find((m) => m.name === metric.name)
        if (!verdict || verdict.baseline === null)
          return skip(gate?.baseline ? `${metric.name} is not in the baseline` : `no baseline: ${HOW_TO_CREATE_BASELINE}`)
        // The gate compared the mean over questions both runs measured, not the summary's (docs/reliability.md).
        const current = verdict.current
        if (current === null) return skip(verdict.reason ?? 'not comparable with the baseline')
        // The metric's row of reports/charts/metrics.svg (with its per-type rows), now vs the baseline with its interval.
        const rows = metricRows(report, table).filter((row) => row.name === metric.name || row.name.startsWith(`${metric.name}.`))
        await annotate(
          `${metric.label}: this run vs the baseline`,
          svgAttachment(metricIntervalsChart(rows, `${metric.label}: this run vs the baseline`)),
        )
        const options = { tolerance: report.config.tolerance, name: metric.name }
        if (verdict.pValue !== null)
          await annotate(
            `paired test against the baseline: delta ${verdict.delta} ${formatInterval(verdict.deltaInterval, 3)}, p ${formatPValue(verdict.pValue)} (${verdict.test}, ${verdict.pairs} questions)`,
          )
        // Under 'significant' and 'both' the gate's verdict decides, not the tolerance alone.
        if (gate && gate.policy !== 'tolerance') return assertPolicyVerdict(verdict, gate, evaluation.gate, annotate)
        if (verdict.status === 'regressed' && metric.judgeDerived && gate?.advisoryReason) {
          await annotate(
            `advisory regression: ${metric.name} ${verdict.baseline} -> ${current}; not blocking because ${gate.advisoryReason}`,
            'warning',
          )
          expect(current).not.toNotRegressFrom(verdict.baseline, options)
          return
        }
        if (verdict.status === 'regressed' && !evaluation.gate) {
          await annotate(`regression: ${metric.name} ${verdict.baseline} -> ${current} (GATE=1 fails the run on it)`, 'error')
          expect(current).not.toNotRegressFrom(verdict.baseline, options)
          return
        }
        if (verdict.status === 'improved')
          await annotate(`improvement: ${metric.name} ${verdict.baseline} -> ${current}; accept it with \`${ACCEPT_BASELINE}\``)
        expect(current).toNotRegressFrom(verdict.baseline, options)
      })
    }
  })
}

/**
 * A gated metric's case under gatePolicy 'significant' or 'both': fails when the gate regressed it; without
 * GATE=1 a regression is only reported, and an advisory judge's metric never fails.
 */
async function assertPolicyVerdict(
  verdict: MetricVerdict,
  gate: GateResult,
  gating: boolean,
  annotate: TestContext['annotate'],
): Promise<void> {
  const message = `${verdict.name} ${formatMetric(verdict.baseline)} -> ${formatMetric(verdict.current)} (${verdict.delta}), p ${formatPValue(verdict.pValue)}: a drop ${gate.policy === 'both' ? `beyond the tolerance ${gate.tolerance} and ` : ''}significant at alpha ${gate.alpha}`
  const advisory = gate.advisory.some((r) => r.name === verdict.name)
  if (verdict.status === 'regressed' && (advisory || !gating)) {
    await annotate(
      `${advisory ? 'advisory ' : ''}regression: ${message}${advisory ? `; not blocking because ${gate.advisoryReason}` : ' (GATE=1 fails the run on it)'}`,
      advisory ? 'warning' : 'error',
    )
    return
  }
  expect(verdict.status, `regression: ${message}`).not.toBe('regressed')
}

/** EVAL_COMPARE=<config>: one case per metric, failing when that config's run is significantly worse than this one. */
export function defineCompareCases(run: SharedRun): void {
  // A run that failed has its one failing case (finishedEvaluation).
  const comparison = run.ok ? run.comparison : null
  if (comparison === null) return
  describe('A/B comparison (EVAL_COMPARE)', () => {
    if (!comparison.ok) {
      it('the comparison runs', () => {
        throw new Error(comparison.error)
      })
      return
    }
    const { result } = comparison
    it('A and B', async ({ annotate }) => {
      await annotate(comparison.text)
      await annotateCharts(annotate, comparisonCharts(result))
      expect(result.questions).toBeGreaterThan(0)
    })
    for (const metric of result.metrics.filter((m) => !m.name.includes('.'))) {
      it(`${metric.name}: B (${result.b.source}) is not significantly worse than A`, async ({ annotate, skip }) => {
        if (metric.pairs === 0) return skip(metric.reason ?? 'no pairs')
        const row = (m: typeof metric) =>
          `${m.label}: A ${formatMetric(m.a)}, B ${formatMetric(m.b)}, delta ${m.delta} ${formatInterval(m.deltaInterval, 3)}, p ${formatPValue(m.pValue)} (${m.test}, ${m.pairs} questions)`
        const rows = result.metrics.filter((m) => m.name === metric.name || m.name.startsWith(`${metric.name}.`))
        for (const m of rows) await annotate(row(m), m.verdict === 'worse' ? 'error' : 'notice')
        await annotate(`${metric.label}: B - A`, svgAttachment(deltaChart(rows, `${metric.label}: B - A with its 95% interval`)))
        const flips = result.flips.find((f) => f.metric === metric.name)
        if (flips && flips.worse.length > 0) await annotate(`worse in B: ${flips.worse.map((f) => f.id).join(', ')}`, 'warning')
        if (flips && flips.better.length > 0) await annotate(`better in B: ${flips.better.map((f) => f.id).join(', ')}`)
        expect(metric.verdict, `${row(metric)}: B is significantly worse at alpha ${result.alpha}`).not.toBe('worse')
      })
    }
  })
}

/** Carries the shard's witness in its meta (kept in the blob), so merging accepts only these runs' shards. */
export function defineShardWitnessCase(run: SharedRun): void {
  if (!run.ok || !run.shard || !run.shardWitness) return
  const { shard, shardWitness: witness } = run
  it(`shard ${shard.index}/${shard.count} wrote its measurement`, ({ task }) => {
    ;(task.meta as Record<string, unknown>)[SHARD_WITNESS_META] = witness
    expect(witness.index).toBe(shard.index)
  })
}
