import { ACCEPT_BASELINE, HOW_TO_CREATE_BASELINE } from '../gate/baseline-location.ts'
import type { GateResult } from '../contract/gate-schema.ts'
import { describeSystemErrorRate } from '../gate/system-error-failure.ts'
import { formatInterval, formatMetric, formatPValue, formatTable, formatDelta } from '../common/format-table.ts'

/** Gated metrics against the baseline, with the change's paired interval, p-value and status under the gate's policy. */
export function gateMetricRows(gate: GateResult): string[][] {
  return [
    ['metric', 'current', 'baseline', 'delta', '95% interval', 'p', 'status'],
    ...gate.metrics.map((m) => [
      m.label,
      formatMetric(m.current),
      formatMetric(m.baseline),
      formatDelta(m.delta),
      formatInterval(m.deltaInterval, 3),
      formatPValue(m.pValue),
      m.status === 'not-comparable' ? `n/a: ${m.reason}` : m.status,
    ]),
  ]
}

/** What the gate fails a metric on, in words, and how the interval and p-value were computed. */
export function describeGatePolicy(gate: GateResult): string {
  const rule = {
    tolerance: `a drop beyond the tolerance ${gate.tolerance}, and any question the baseline passed`,
    significant: `a drop significant at alpha ${gate.alpha} (paired test), whatever its size`,
    both: `a drop beyond the tolerance ${gate.tolerance} that is also significant at alpha ${gate.alpha}`,
  }[gate.policy]
  return (
    `gate policy ${gate.policy}: fails on ${rule}. p: exact McNemar (recall, refusal) ` +
    `or sign-flip permutation (the rest) against the baseline's per-question outcomes; interval: ` +
    `paired bootstrap of the change`
  )
}

/** The regressions table (name, baseline, current, delta), or the line saying there are none. */
export function renderRegressions(gate: GateResult, style: 'text' | 'markdown'): string {
  if (gate.baseline === null) return `gate: no baseline; ${HOW_TO_CREATE_BASELINE}`
  // A baseline that cannot be trusted fails the gate whatever the numbers say (gate.problems).
  if (gate.problems.length > 0)
    return `gate: FAILED, the baseline at ${gate.baseline}/ cannot be trusted:\n${gate.problems.map((p) => `  - ${p}`).join('\n')}`
  const none = {
    tolerance: `beyond the tolerance ${gate.tolerance}`,
    significant: `significant at alpha ${gate.alpha}`,
    both: `both beyond the tolerance ${gate.tolerance} and significant at alpha ${gate.alpha}`,
  }[gate.policy]
  const errors = gate.systemErrors
  if (gate.regressions.length === 0 && errors?.exceeded)
    return `gate: FAILED, ${describeSystemErrorRate(errors)}: the run did not measure the system (no regression ${none} among the questions it measured, against ${gate.baseline}/)`
  if (gate.regressions.length === 0)
    return `gate: passed, no regression ${none} against ${gate.baseline}/${errors ? `; ${errors.errors} question(s) not measured (system errors within maxSystemErrorRate ${errors.limit}), listed above` : ''}`
  const rows = [
    ['regression', 'baseline', 'current', 'delta'],
    ...gate.regressions.map((r) => [
      r.lostAt ? `${r.name}: ${r.lostAt}` : r.name,
      r.baseline.toFixed(4),
      r.current.toFixed(4),
      formatDelta(r.delta),
    ]),
  ]
  const policy =
    gate.policy === 'tolerance'
      ? `tolerance ${gate.tolerance}`
      : `policy ${gate.policy}, tolerance ${gate.tolerance}, alpha ${gate.alpha}`
  const alsoErrors = errors?.exceeded ? `, and ${describeSystemErrorRate(errors)}` : ''
  return `gate: FAILED, ${gate.regressions.length} regression(s) against ${gate.baseline}/ (${policy})${alsoErrors}\n\n${formatTable(rows, style)}`
}

/** The questions the system failed on, apart from the misses (an error is never a miss); no lines when none. */
export function renderSystemErrors(gate: GateResult): string[] {
  const errors = gate.systemErrors
  if (errors === undefined) return []
  const verdict = errors.exceeded ? 'the gate fails on it' : 'tolerated, the gate does not fail on it'
  const before = (passed: boolean | null) =>
    passed === null ? 'no verdict in the baseline' : passed ? 'passed in the baseline' : 'missed in the baseline'
  return [
    `system errors (not misses, not regressions; left out of the metrics' comparisons): ${describeSystemErrorRate(errors)}: ${verdict}`,
    ...errors.unmeasured.map((q) => `  - ${q.id} (${before(q.baselinePassed)}): ${q.error}`),
  ]
}

/** Judge-derived regressions that do not block because the judge is advisory, and why. */
export function renderAdvisory(gate: GateResult): string[] {
  if (gate.advisoryReason === null) return []
  const lines = [`judge-derived metrics are advisory (reported, not blocking): ${gate.advisoryReason}`]
  for (const r of gate.advisory)
    lines.push(`  advisory regression: ${r.name} ${r.baseline.toFixed(4)} -> ${r.current.toFixed(4)} (${formatDelta(r.delta)})`)
  return lines
}

/** Lines for a stale baseline: what it was measured under that differs from this run. */
export function renderStaleness(gate: GateResult): string[] {
  if (gate.stale.length === 0) return []
  return [
    `baseline measured under other conditions (accept with ${ACCEPT_BASELINE} if intended):`,
    ...gate.stale.map((s) => `  - ${s}`),
  ]
}

/** Question outcomes against the baseline worth a line: improvements and known misses. */
export function renderQuestionChanges(gate: GateResult): string[] {
  const ids = (status: string) => gate.questions.filter((q) => q.status === status).map((q) => q.id)
  const lines: string[] = []
  const improved = ids('improved')
  const lost = gate.policy === 'tolerance' ? [] : ids('regressed')
  if (lost.length > 0)
    lines.push(
      `lost since the baseline (not failed under gate policy ${gate.policy}: the metrics' paired tests decide): ${lost.join(', ')}`,
    )
  const known = ids('known-miss')
  const fresh = ids('new')
  if (improved.length > 0) lines.push(`improved (the baseline missed them; ${ACCEPT_BASELINE} accepts): ${improved.join(', ')}`)
  if (known.length > 0) lines.push(`known misses (missed in the baseline too): ${known.join(', ')}`)
  if (fresh.length > 0) lines.push(`new questions (not in the baseline): ${fresh.join(', ')}`)
  return lines
}
