import type { Report } from './report-schema.ts'

const integer = (n: number) => n.toLocaleString('en-US')
const usd = (n: number) => `$${n < 1 ? n.toFixed(4) : n.toFixed(2)}`
const ms = (stage: { p50: number; p95: number } | null) => (stage === null ? 'n/a' : `p50 ${Math.round(stage.p50)} ms, p95 ${Math.round(stage.p95)} ms`)

/** The report's warnings, one line each (the same model generating and judging, cut-off answers, a scripted recording). */
export function renderWarnings(report: Report): string[] {
  return report.warnings.map((warning) => `warning: ${warning}`)
}

/**
 * The model tier's bill (model modes only): API calls per role, cache hits, retries, tokens (cache reads
 * and writes apart), USD, the generate/judge latencies of the API calls, and the judge errors.
 */
export function renderModelRun(report: Report): string[] {
  if (report.config.mode === 'offline') return []
  const { usage, latencyMs } = report.run
  const lines = [
    `model calls: ${integer(usage.calls)} to the API (generator ${integer(usage.byRole.generator.calls)}, judge ${integer(usage.byRole.judge.calls)}), ${integer(usage.cacheHits)} ${report.config.mode === 'replay' ? 'replayed' : 'from the cache'}, ${integer(usage.retries)} retries`,
    `model cost: ${usd(usage.usd)} for ${integer(usage.inputTokens)} input + ${integer(usage.outputTokens)} output tokens (cache read ${integer(usage.cacheReadTokens)}, cache write ${integer(usage.cacheWriteTokens)})${usage.savedByCache.usd > 0 ? `; ${report.config.mode === 'replay' ? 'the replayed responses' : 'the cache hits'} would have cost ${usd(usage.savedByCache.usd)}` : ''} · latency generate ${ms(latencyMs.generate)}, judge ${ms(latencyMs.judge)}`,
  ]
  const { judgeErrors, judgeErrorRate } = report.summary
  if (judgeErrors !== null && judgeErrorRate !== null) {
    const over = judgeErrorRate > report.config.maxJudgeErrorRate
    lines.push(`judge errors: ${judgeErrors} answer(s), rate ${judgeErrorRate} (limit ${report.config.maxJudgeErrorRate}${over ? ': the gate fails' : ''})`)
  }
  return lines
}
