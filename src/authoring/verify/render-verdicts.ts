import type { VerdictStatus } from './verdict-schema.ts'
import { verdictOf, type Effect, type VerifiedCandidate } from './verify-candidates.ts'

/** verified.jsonl: one line per candidate, in file order: the object as read, and its verdict. */
export function verifiedJsonl(verified: readonly VerifiedCandidate[]): string {
  return verified.map((v) => JSON.stringify({ ...v.candidate.record, verdict: verdictOf(v) })).join('\n') + '\n'
}

const HEADINGS: Record<Effect, string> = { reject: 'rejections', undecided: 'undecided', note: 'warnings (kept)' }

/** How many candidates each reason touched, by effect, most frequent first (ties by check name). */
export function reasonCounts(verified: readonly VerifiedCandidate[]): Record<Effect, [string, number][]> {
  const counts: Record<Effect, Map<string, number>> = { reject: new Map(), undecided: new Map(), note: new Map() }
  for (const v of verified) {
    const seen = new Set<string>()
    for (const r of v.reasons) {
      const key = `${r.effect}\u0000${r.check}`
      if (seen.has(key)) continue
      seen.add(key)
      counts[r.effect].set(r.check, (counts[r.effect].get(r.check) ?? 0) + 1)
    }
  }
  const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
  return { reject: sorted(counts.reject), undecided: sorted(counts.undecided), note: sorted(counts.note) }
}

/** The terminal summary: rejected and undecided candidates with reasons, counts per reason, totals; all counted. */
export function renderVerifySummary(verified: readonly VerifiedCandidate[], judge: string, out: string): string {
  const lines: string[] = []
  for (const status of ['rejected', 'undecided'] as const satisfies readonly VerdictStatus[]) {
    const these = verified.filter((v) => v.status === status)
    if (these.length === 0) continue
    lines.push(`${status}`)
    for (const v of these) {
      lines.push(`  ${v.candidate.id}  (${v.candidate.where})`)
      for (const r of v.reasons.filter((r) => r.effect !== 'note')) lines.push(`      ${r.check}: ${r.message}`)
    }
    lines.push('')
  }
  const counts = reasonCounts(verified)
  for (const effect of ['reject', 'undecided', 'note'] as const) {
    if (counts[effect].length === 0) continue
    lines.push(`${HEADINGS[effect]} by check: ${counts[effect].map(([check, n]) => `${check} ${n}`).join(', ')}`)
  }
  const n = (status: VerdictStatus) => verified.filter((v) => v.status === status).length
  lines.push(
    `golden verify (${judge}): ${verified.length} candidate${verified.length === 1 ? '' : 's'}: ` +
      `${n('kept')} kept, ${n('rejected')} rejected, ${n('undecided')} undecided; verdicts in ${out}`,
  )
  return lines.join('\n')
}
