import { RULES, type Finding } from './finding.ts'

export interface LintReport {
  goldenSet: string
  corpus: string
  /** Questions checked; null when the file did not load. */
  questions: number | null
  /** False when the loader rejected the file, so the other rules did not run. */
  complete: boolean
  findings: Finding[]
  /** Rules that did not run, and why (e.g. no document text when corpus is null). */
  skipped?: { rules: readonly string[]; reason: string } | undefined
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`
}

export function counts(report: LintReport): { errors: number; warnings: number } {
  const errors = report.findings.filter((f) => f.severity === 'error').length
  return { errors, warnings: report.findings.length - errors }
}

/** The last line: counts of errors and warnings and what was checked. */
export function countLine(report: LintReport): string {
  const { errors, warnings } = counts(report)
  const scope = report.complete
    ? `in ${plural(report.questions ?? 0, 'question')}`
    : '(the file does not load: the other rules did not run)'
  return `golden:check: ${plural(errors, 'error')}, ${plural(warnings, 'warning')} ${scope}`
}

/** Findings for a terminal, by severity then rule, each naming the question, the problem and the fix; then a count. */
export function renderFindingsText(report: LintReport): string {
  const lines: string[] = []
  const width = Math.max(5, ...report.findings.map((f) => (f.questionId ?? '(set)').length))
  for (const severity of ['error', 'warning'] as const) {
    const ofSeverity = report.findings.filter((f) => f.severity === severity)
    if (ofSeverity.length === 0) continue
    lines.push(severity === 'error' ? 'errors' : 'warnings')
    const rules = [...new Set(ofSeverity.map((f) => f.rule))]
    for (const rule of rules) {
      const ofRule = ofSeverity.filter((f) => f.rule === rule)
      lines.push(`  ${rule} (${ofRule.length}): ${RULES[rule].summary}`)
      for (const f of ofRule) {
        lines.push(`    ${(f.questionId ?? '(set)').padEnd(width)}  ${f.message}`)
        lines.push(`    ${''.padEnd(width)}  fix: ${f.fix}`)
      }
    }
    lines.push('')
  }
  if (!report.complete) lines.push('The other rules run once the file loads: fix the errors above first.', '')
  if (report.skipped) lines.push(`skipped ${report.skipped.rules.join(', ')}: ${report.skipped.reason}`)
  lines.push(countLine(report))
  return lines.join('\n')
}

/** The same report as JSON, for scripts and CI annotations. */
export function renderFindingsJson(report: LintReport): string {
  return JSON.stringify({ ...report, ...counts(report) }, null, 2)
}
