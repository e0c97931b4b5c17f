import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path/posix'
import type { z } from 'zod'
import { InputError } from '../contract/input-error.ts'
import { parseJsonText } from '../files/read-json-file.ts'
import { decodeUtf8Text } from '../files/utf8-text.ts'
import { questionMetrics } from '../contract/question-metrics.ts'
import type { Report } from '../contract/report-schema.ts'
import { writeFileAtomic } from '../files/write-file-atomic.ts'
import {
  BaselineQuestionsSchema,
  BaselineSummarySchema,
  describeBaselineIssues,
  REACCEPT_BASELINE,
  type Baseline,
  type BaselineQuestion,
  type BaselineSummary,
  type DamagedBaseline,
} from './baseline-schema.ts'
import { gatedValues } from './gated-metrics.ts'

/**
 * Reads the accepted baseline from `dir`: null when it does not exist yet; a DamagedBaseline when a file
 * is missing, unreadable, not JSON, or not the baseline format (a gated metric missing or misspelled, no
 * per-question outcomes...). Damage is not thrown: the gate fails on it and names what to do, and
 * `pnpm baseline:update` can still run and replace the baseline.
 */
export function readBaseline(dir: string): Baseline | DamagedBaseline | null {
  const summaryFile = join(dir, 'summary.json')
  const questionsFile = join(dir, 'questions.json')
  if (!existsSync(summaryFile) && !existsSync(questionsFile)) return null
  const summary = readBaselineFile(summaryFile, BaselineSummarySchema)
  const questions = readBaselineFile(questionsFile, BaselineQuestionsSchema)
  if (!summary.ok || !questions.ok)
    return { damaged: [...(summary.ok ? [] : summary.problems), ...(questions.ok ? [] : questions.problems)] }
  const { questions: accepted, systemErrors } = questions.value
  return { summary: summary.value, questions: accepted, ...(systemErrors ? { systemErrors } : {}) }
}

type FileRead<T> = { ok: true; value: T } | { ok: false; problems: string[] }

function readBaselineFile<S extends z.ZodType>(file: string, schema: S): FileRead<z.output<S>> {
  let data: unknown
  try {
    data = parseJsonText(decodeUtf8Text(readFileSync(file), file), file)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    const problem =
      error instanceof InputError
        ? error.message
        : code === 'ENOENT'
          ? `${file}: missing`
          : code === 'EISDIR'
            ? `${file}: a folder, expected a file`
            : `${file}: unreadable (${code ?? (error as Error).message})`
    return { ok: false, problems: [`${problem}; ${REACCEPT_BASELINE}`] }
  }
  const parsed = schema.safeParse(data)
  return parsed.success
    ? { ok: true, value: parsed.data }
    : { ok: false, problems: describeBaselineIssues(file, parsed.error.issues) }
}

/**
 * The baseline a report would become if accepted: plain, stable-ordered data (questions sorted by id). A
 * question the system failed on is no outcome: it is left out of the questions (never a known miss) and
 * named in systemErrors. Whether a run may be accepted at all: decideBaselineAcceptance.
 */
export function baselineFromReport(report: Report): Baseline {
  // The baseline keeps the knobs alone: the system is recorded apart, and `retriever` repeats retrieval.kind.
  const { system, retriever: _kind, ...config } = report.config
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
  const sorted = [...report.questions].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  const questions: BaselineQuestion[] = sorted
    .filter((q) => q.systemError === null)
    .map((q) => ({ id: q.id, type: q.type, ...questionMetrics(q) }))
  const systemErrors = sorted.filter((q) => q.systemError !== null).map((q) => q.id)
  return { summary, questions, ...(systemErrors.length > 0 ? { systemErrors } : {}) }
}

/**
 * Writes the baseline (pretty JSON, diff-friendly). Only an accept path calls this (the eval project's
 * global setup under Vitest's update flag, `vitest -u`), and only after decideBaselineAcceptance accepted
 * the run: a baseline is accepted, never drifted into, and never from a run that did not measure the system.
 */
export function writeBaseline(dir: string, baseline: Baseline): void {
  writeFileAtomic(join(dir, 'summary.json'), JSON.stringify(baseline.summary, null, 2) + '\n')
  writeFileAtomic(
    join(dir, 'questions.json'),
    JSON.stringify(
      {
        schemaVersion: 1,
        questions: baseline.questions,
        ...(baseline.systemErrors?.length ? { systemErrors: baseline.systemErrors } : {}),
      },
      null,
      2,
    ) + '\n',
  )
}
