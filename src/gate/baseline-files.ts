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
  BaselineRunSchema,
  BaselineSummarySchema,
  describeBaselineIssues,
  REACCEPT_BASELINE,
  type Baseline,
  type DamagedBaseline,
} from './baseline-schema.ts'

/**
 * The baseline in `dir`: null when absent; a DamagedBaseline (not thrown) when a file is missing, unreadable or
 * malformed, so the gate fails naming the fix and `pnpm baseline:update` can still replace it.
 */
export function readBaseline(dir: string): Baseline | DamagedBaseline | null {
  const summaryFile = join(dir, 'summary.json')
  const questionsFile = join(dir, 'questions.json')
  if (!existsSync(summaryFile) && !existsSync(questionsFile)) return null
  const summary = readBaselineFile(summaryFile, BaselineSummarySchema)
  const questions = readBaselineFile(questionsFile, BaselineQuestionsSchema)
  if (!summary.ok || !questions.ok)
    return { damaged: [...(summary.ok ? [] : summary.problems), ...(questions.ok ? [] : questions.problems)] }
  const runFile = join(dir, 'run.json')
  const run = existsSync(runFile) ? readBaselineFile(runFile, BaselineRunSchema) : null
  if (run !== null && !run.ok) return { damaged: run.problems }
  const { questions: accepted, systemErrors } = questions.value
  return {
    summary: summary.value,
    questions: accepted,
    ...(systemErrors ? { systemErrors } : {}),
    ...(run ? { run: run.value } : {}),
  }
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
 * Writes the baseline (pretty JSON, diff-friendly); only an accept path calls it, after decideBaselineAcceptance:
 * a baseline is accepted, never drifted into.
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
  if (baseline.run) writeFileAtomic(join(dir, 'run.json'), JSON.stringify(baseline.run, null, 2) + '\n')
}

/** Writes the baseline into `dir` only when decideBaselineAcceptance accepts; `shownDir` is `dir` as messages show it. */
export function acceptBaseline(report: Report, dir: string, shownDir: string): BaselineAcceptance {
  const decision = decideBaselineAcceptance(report, shownDir)
  if (decision.accepted) writeBaseline(dir, decision.baseline)
  return decision
}

// The baseline a run would become lives in a pure module (the accept decision uses it); named here too for the callers.
export { baselineFromReport } from './baseline-from-report.ts'
