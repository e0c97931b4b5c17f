import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path/posix'
import type { z } from 'zod'
import { InputError } from '../contract/input-error.ts'
import { parseJsonText } from '../files/read-json-file.ts'
import { decodeUtf8Text } from '../files/utf8-text.ts'
import { writeFileAtomic } from '../files/write-file-atomic.ts'
import type { Report } from '../contract/report-schema.ts'
import { decideBaselineAcceptance, type BaselineAcceptance } from './accept-decision.ts'
import {
  BaselineQuestionsSchema,
  BaselineSummarySchema,
  describeBaselineIssues,
  REACCEPT_BASELINE,
  type Baseline,
  type DamagedBaseline,
} from './baseline-schema.ts'

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

/**
 * An accept path: decides (decideBaselineAcceptance) and writes the baseline into `dir` only when the run
 * is accepted; a refused run leaves `dir` as it was. `shownDir` is `dir` as messages show it.
 */
export function acceptBaseline(report: Report, dir: string, shownDir: string): BaselineAcceptance {
  const decision = decideBaselineAcceptance(report, shownDir)
  if (decision.accepted) writeBaseline(dir, decision.baseline)
  return decision
}

// The baseline a run would become lives in a pure module (the accept decision uses it); named here too for the callers.
export { baselineFromReport } from './baseline-from-report.ts'
