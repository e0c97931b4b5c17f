import type { Report } from '../contract/report-schema.ts'

/**
 * The question cases the merged Vitest view must show failed, from the merged report (a pure function):
 * each shard ran its question cases without gating (shards never gate), so a question that regressed
 * against the baseline, or that the system failed on, passed (or was expected to fail) in its blob. The
 * merge's gate decides: under gatePolicy 'tolerance' every regressed question fails; under every policy a
 * system error fails (never an expected failure). In golden-set order, each with the message its case shows.
 */
export function mergedQuestionFailures(report: Report): { id: string; message: string }[] {
  const gate = report.gate
  const errors = new Map(report.questions.map((q) => [q.id, q.systemError]))
  if (gate === null)
    return report.questions.flatMap((q) => (q.systemError === null ? [] : [systemErrorFailure(q.id, q.systemError)]))
  return gate.questions.flatMap((verdict) => {
    if (verdict.status === 'system-error') return [systemErrorFailure(verdict.id, errors.get(verdict.id) ?? '')]
    if (verdict.status === 'regressed' && gate.policy === 'tolerance')
      return [
        { id: verdict.id, message: `regression: the baseline passed this question (gate of the merged run, ${gate.baseline}/)` },
      ]
    return []
  })
}

function systemErrorFailure(id: string, error: string): { id: string; message: string } {
  return { id, message: `system error: ${error}` }
}
