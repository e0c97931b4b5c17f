import { existsSync } from 'node:fs'
import { join } from 'node:path/posix'
import { readJsonFile } from '../load/read-json-file.ts'
import { questionMetrics } from '../report/question-metrics.ts'
import type { Report } from '../report/report-schema.ts'
import { writeFileAtomic } from '../report/write-report.ts'
import { BaselineQuestionsSchema, BaselineSummarySchema, type Baseline, type BaselineQuestion, type BaselineSummary } from './baseline-schema.ts'
import { gatedValues } from './gated-metrics.ts'

/** Where baselines live: offline at the root, each model mode in a folder of its own. */
export const BASELINE_ROOT = 'baseline'

/**
 * The baseline folder of a mode. Offline runs compare with baseline/; live and record runs with
 * baseline/live/; replay runs with baseline/replay/ (a recording's numbers are not a live model's,
 * nor the offline judge's, so they never gate each other).
 */
export function baselineDirFor(root: string, mode: 'offline' | 'live' | 'record' | 'replay'): string {
  return mode === 'offline' ? root : `${root}/${mode === 'record' ? 'live' : mode}`
}
export const HOW_TO_CREATE_BASELINE = 'create it with `pnpm baseline:update` (vitest run --project eval -u) under the same EVAL_MODE, and commit it (offline: baseline/, live: baseline/live/, replay: baseline/replay/)'

/** Reads the accepted baseline from `dir`; null when it does not exist yet. */
export function readBaseline(dir: string): Baseline | null {
  const summaryFile = join(dir, 'summary.json')
  const questionsFile = join(dir, 'questions.json')
  if (!existsSync(summaryFile) && !existsSync(questionsFile)) return null
  const hint = 'recreate it with `pnpm baseline:update`'
  const summary = readJsonFile(summaryFile, BaselineSummarySchema, hint)
  const questions = readJsonFile(questionsFile, BaselineQuestionsSchema, hint).questions
  return { summary, questions }
}

/** The baseline a report would become if accepted: plain, stable-ordered data (questions sorted by id). */
export function baselineFromReport(report: Report): Baseline {
  const { system, ...config } = report.config
  const summary: BaselineSummary = {
    schemaVersion: 1,
    system,
    config,
    models: { generator: report.config.generatorModel, judge: report.config.judgeModel },
    judgePromptsHash: report.inputs.judgePromptsHash,
    goldenSetHash: report.inputs.goldenSetHash,
    corpusHash: report.inputs.corpusHash,
    metrics: gatedValues(report.summary),
  }
  const questions: BaselineQuestion[] = [...report.questions]
    .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((q) => ({ id: q.id, type: q.type, ...questionMetrics(q) }))
  return { summary, questions }
}

/**
 * Writes the baseline (pretty JSON, diff-friendly). Only the eval project's global setup calls this,
 * and only under Vitest's update flag (`vitest -u`): a baseline is accepted, never drifted into.
 */
export function writeBaseline(dir: string, baseline: Baseline): void {
  writeFileAtomic(join(dir, 'summary.json'), JSON.stringify(baseline.summary, null, 2) + '\n')
  writeFileAtomic(join(dir, 'questions.json'), JSON.stringify({ schemaVersion: 1, questions: baseline.questions }, null, 2) + '\n')
}
