import type { Report } from '../contract/report-schema.ts'
import { mergedQuestionFailures } from '../shard/merged-question-failures.ts'
import { questionCaseName } from './question-case-plan.ts'

/** What is read and changed of a Vitest task from a blob (a File, a suite or a test): a structural subset of Vitest's Task. */
export interface MergedTask {
  type: string
  name: string
  fails?: boolean
  result?: { state?: string; errors?: unknown[] }
  tasks?: MergedTask[]
}

/**
 * Fails, in the blobs' tasks before any reporter sees them, the question cases the merged gate fails (with their
 * suites and file), so counts, JUnit and exit code agree with it. Returns failing ids no blob holds a case for.
 */
export function failMergedQuestionCases(files: readonly MergedTask[], report: Report, gating: boolean): string[] {
  const failures = mergedQuestionFailures(report, gating)
  if (failures.length === 0) return []
  const outcomes = new Map(report.questions.map((q) => [q.id, q]))
  const byName = new Map(failures.map((f) => [questionCaseName(outcomes.get(f.id)!), f]))
  const found = new Set<string>()
  const visit = (task: MergedTask, ancestors: readonly MergedTask[]) => {
    if (task.type === 'test') {
      const failure = byName.get(task.name)
      if (failure === undefined) return
      found.add(failure.id)
      fail(task, failure.message)
      for (const ancestor of ancestors) ancestor.result = { ...ancestor.result, state: 'fail' }
      return
    }
    for (const child of task.tasks ?? []) visit(child, [...ancestors, task])
  }
  for (const file of files) visit(file, [])
  return failures.filter((f) => !found.has(f.id)).map((f) => f.id)
}

/** A case failed with `message`, unless it already failed (a shard's system error: its own error stands). */
function fail(task: MergedTask, message: string): void {
  if (task.result?.state === 'fail' && !task.fails) return
  task.fails = false
  task.result = { ...task.result, state: 'fail', errors: [{ name: 'Error', message, stack: `Error: ${message}` }] }
}
