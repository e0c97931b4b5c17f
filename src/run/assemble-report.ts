import { calibrate } from '../calibration/calibrate.ts'
import type { HumanLabel } from '../calibration/human-labels-schema.ts'
import { loadHumanLabels } from '../calibration/load-human-labels.ts'
import { displayPath, type ProjectConfig } from '../config/project-config.ts'
import type { Baseline, DamagedBaseline } from '../gate/baseline-schema.ts'
import { readBaseline } from '../gate/baseline-files.ts'
import { baselineDirFor } from '../gate/baseline-location.ts'
import { evaluateGate } from '../gate/gate.ts'
import { questionThresholds } from '../gate/question-checks.ts'
import { judgeTrials, reportTrials } from '../gate/trials.ts'
import type { Report } from '../contract/report-schema.ts'
import { STATISTICS_SEED } from '../statistics/defaults.ts'
import { percentile, round4 } from '../statistics/descriptive.ts'
import { NO_ANSWERS_REASON, summarise } from '../summary/summarise.ts'
import type { Measurement } from './measurement.ts'
import { judgeNoiseWarnings, measureJudgeNoise } from '../judge/judge-noise.ts'
import type { MeanResampler } from '../statistics/mean-resamples.ts'
import { parallelMeanResampler } from '../threads/index.ts'
import { unreviewedWarning } from '../report/render-provenance.ts'

/** Why generation metrics are null in a full run whose system returned no answer. */
const NO_SYSTEM_ANSWERS_REASON =
  'the system under test returned no answers (its responses carry no "answer"): retrieval metrics only'

/** What a report is judged against, read from the project: the human labels and the accepted baseline. */
export interface ReportReferences {
  labels: readonly HumanLabel[] | null
  /** Warnings about the labels file (labels of questions the run does not have). */
  labelWarnings: readonly string[]
  /** The labels file as the report shows it (relative to the project root). */
  labelsFile: string
  /** null: the run is not compared (no baseline root). */
  baseline: { accepted: Baseline | DamagedBaseline | null; shownAs: string } | null
}

/** Reads the labels and the baseline of the run's mode under `baselineRoot` (null: no comparison). */
function readReportReferences(project: ProjectConfig, baselineRoot: string | null, measurement: Measurement): ReportReferences {
  const baselineDir = baselineRoot === null ? null : baselineDirFor(baselineRoot, measurement.config.mode)
  const loaded = loadHumanLabels(project.humanLabels, new Set(measurement.goldenSetIds))
  return {
    labels: loaded?.labels ?? null,
    labelWarnings: loaded?.warnings ?? [],
    labelsFile: displayPath(project, project.humanLabels),
    baseline: baselineDir === null ? null : { accepted: readBaseline(baselineDir), shownAs: displayPath(project, baselineDir) },
  }
}

/** The report of a measurement gated against the baseline under `baselineRoot` (default the project's; null: not compared). */
export function reportOf(project: ProjectConfig, measurement: Measurement, baselineRoot: string | null | undefined): Report {
  return assembleReport(
    measurement,
    readReportReferences(project, baselineRoot === undefined ? project.baseline : baselineRoot, measurement),
    parallelMeanResampler,
  )
}

/** p50/p95 of a stage's wall times; null when the stage did not run. */
function latency(times: readonly number[]): { p50: number; p95: number } | null {
  const p50 = percentile(times, 50)
  const p95 = percentile(times, 95)
  return p50 === null || p95 === null ? null : { p50: round4(p50), p95: round4(p95) }
}

/** A stage's wall times at every fifth percentile (0 to 100, nearest rank); null when the stage did not run. */
function percentiles(times: readonly number[]): number[] | null {
  if (times.length === 0) return null
  const sorted = [...times].sort((a, b) => a - b)
  return Array.from({ length: 21 }, (_, i) => round4(sorted[Math.max(1, Math.ceil((i / 20) * sorted.length)) - 1]!))
}

/**
 * The report of a measurement (pure): one run and the merge of its shards go through it alike, hence the same report.
 * `resampler` computes the bootstrap replicates (on this thread when absent; the same to the bit either way).
 */
export function assembleReport(measurement: Measurement, references: ReportReferences, resampler?: MeanResampler): Report {
  const { questions, judge, run } = measurement
  const full = measurement.tier === 'full'
  const judgeErrors = questions.filter((q) => (q.generation?.judgeErrors.length ?? 0) > 0).length
  const { stageMs, ...runFacts } = run
  const judgeNoise = measureJudgeNoise(questions, measurement.config.repeats)
  const unreviewed = unreviewedWarning(questions)
  const report: Report = {
    schemaVersion: 1,
    tier: measurement.tier,
    config: measurement.config,
    corpus: measurement.corpus,
    inputs: measurement.inputs,
    summary: summarise(questions, judge, judgeErrors, full ? NO_SYSTEM_ANSWERS_REASON : NO_ANSWERS_REASON, {
      resamples: measurement.config.bootstrapResamples,
      alpha: measurement.config.alpha,
      ...(resampler === undefined ? {} : { resampler }),
    }),
    questions,
    calibration:
      full && judge !== null
        ? calibrate(references.labels, questions, references.labelsFile, judge, measurement.scripted, {
            minAgreement: measurement.config.minJudgeAgreement,
            resamples: measurement.config.bootstrapResamples,
            seed: STATISTICS_SEED,
          })
        : null,
    gate: null,
    run: {
      startedAt: runFacts.startedAt,
      durationMs: runFacts.durationMs,
      latencyMs: { retrieve: latency(stageMs.retrieve), generate: latency(stageMs.generate), judge: latency(stageMs.judge) },
      stageLatencyMs: Object.fromEntries(Object.entries(stageMs.pipeline).map(([name, times]) => [name, latency(times)])),
      latencyPercentilesMs: {
        retrieve: percentiles(stageMs.retrieve),
        generate: percentiles(stageMs.generate),
        judge: percentiles(stageMs.judge),
      },
      usage: runFacts.usage,
      modelCalls: runFacts.modelCalls,
      estimate: runFacts.estimate,
      batches: runFacts.batches,
    },
    judgeNoise,
    warnings: [
      ...measurement.warnings,
      ...judgeNoiseWarnings(judgeNoise, measurement.config.tolerance),
      ...[...measurement.questionWarnings].sort(),
      ...(unreviewed === null ? [] : [unreviewed]),
      ...(full && judge !== null ? references.labelWarnings : []),
    ],
    ...(measurement.attacks === undefined ? {} : { attacks: measurement.attacks }),
  }
  // Each trial's verdict needs the report's thresholds (the judge's calibration decides whether it may block).
  if (report.config.trials !== undefined && report.config.trials > 1) {
    const thresholds = questionThresholds(report)
    report.questions = questions.map((q) => (q.trials ? { ...q, trials: judgeTrials(q.trials.runs, q, thresholds) } : q))
    report.trials = reportTrials(report.questions, report.config)
  }
  if (references.baseline !== null)
    report.gate = evaluateGate(
      report,
      references.baseline.accepted,
      references.baseline.shownAs,
      measurement.config.tolerance,
      resampler,
    )
  return report
}
