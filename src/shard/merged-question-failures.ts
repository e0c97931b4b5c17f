import type { Report } from '../contract/report-schema.ts'

/**
 * The question cases the merged view must fail, as one run would (shards never gate, so their blobs passed them): a
 * system error always; a regressed question only when GATE=1 under gatePolicy 'tolerance'. In golden-set order.
 */
export function mergedQuestionFailures(report: Report, gating: boolean): { id: string; message: string }[] {
  const gate = report.gate
  const errors = new Map(report.questions.map((q) => [q.id, q.systemError]))
  if (gate === null)
    return report.questions.flatMap((q) => (q.systemError === null ? [] : [systemErrorFailure(q.id, q.systemError)]))
  return gate.questions.flatMap((verdict) => {
    if (verdict.status === 'system-error') return [systemErrorFailure(verdict.id, errors.get(verdict.id) ?? '')]
    if (verdict.status === 'regressed' && gating && gate.policy === 'tolerance')
      return [
        {
          id: verdict.id,
          message: `${verdict.id}: regression: the baseline passed this question (the merged run's gate against ${gate.baseline}/, GATE=1)`,
        },
      ]
    return []
  })
}

function systemErrorFailure(id: string, error: string): { id: string; message: string } {
  return { id, message: `${id}: not measured: the system under test failed on it: ${error}` }
}
