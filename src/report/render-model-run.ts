import type { RoleUsage, RunEstimate } from '../contract/model-usage-schema.ts'
import type { Report } from '../contract/report-schema.ts'

const integer = (n: number) => n.toLocaleString('en-US')
const usd = (n: number) => `$${n < 1 ? n.toFixed(4) : n.toFixed(2)}`
const ms = (stage: { p50: number; p95: number } | null) =>
  stage === null ? 'n/a' : `p50 ${Math.round(stage.p50)} ms, p95 ${Math.round(stage.p95)} ms`

/** The report's warnings, one line each (the same model generating and judging, cut-off answers, a scripted recording). */
export function renderWarnings(report: Report): string[] {
  return report.warnings.map((warning) => `warning: ${warning}`)
}

/** The cost estimate made before any call (printed then, and kept in the report): per role, the total, the ceiling, the cap. */
export function renderEstimate(estimate: RunEstimate): string[] {
  const role = (name: 'generator' | 'judge') => {
    const r = estimate.byRole[name]
    return (
      `  ${name} (${r.model}${r.batch ? ', in batches at the batch price' : ''}): ${integer(r.calls)} ` +
      `call(s) to send, ${integer(r.cached)} from the cache; ` +
      `~${integer(r.inputTokens)} input + ${integer(r.outputTokens)} output tokens (cache ` +
      `read ${integer(r.cacheReadTokens)}, write ${integer(r.cacheWriteTokens)}): ` +
      `~${usd(r.usd)} (ceiling ${usd(r.worstCaseUsd)})`
    )
  }
  return [
    `cost estimate before any model call (${estimate.basis}):`,
    role('generator'),
    role('judge'),
    `  total ~${usd(estimate.usd)}, ceiling ${usd(estimate.worstCaseUsd)} (every reply at max_tokens)` +
      (estimate.maxUsd === null
        ? ' · no cap (EVAL_MAX_USD unset)'
        : ` · EVAL_MAX_USD ${usd(estimate.maxUsd)}: no request is sent whose worst case could cross it`),
    ...estimate.notes.map((note) => `  note: ${note}`),
  ]
}

function promptCachingLine(usage: Report['run']['usage']): string {
  const { cacheReadTokens, cacheWriteTokens, usd: saved } = usage.savedByPromptCache
  const tokens = `  prompt caching: ${integer(cacheReadTokens)} token(s) read from the cache, ${integer(cacheWriteTokens)} written`
  if (cacheReadTokens + cacheWriteTokens === 0)
    return `${tokens}${usage.calls > 0 ? " (no cacheable prefix reached its model's minimum length)" : ''}`
  return saved >= 0
    ? `${tokens}: saved ${usd(saved)}`
    : `${tokens}: cost ${usd(-saved)} more than it saved (prefixes written, never read again)`
}

function roleCost(name: string, model: string, r: RoleUsage): string {
  const batch = r.batchCalls > 0 ? `, ${integer(r.batchCalls)} of them in batches at the batch price` : ''
  return (
    `  ${name} (${model}): ${integer(r.calls)} call(s)${batch}, ${integer(r.inputTokens)} input ` +
    `+ ${integer(r.outputTokens)} output tokens (cache read ${integer(r.cacheReadTokens)}, ` +
    `write ${integer(r.cacheWriteTokens)}): ${usd(r.usd)}`
  )
}

/** The model tier's bill (model modes only): calls, cache hits, retries, costs, latencies, the estimate, judge errors. */
export function renderModelRun(report: Report): string[] {
  if (report.config.mode === 'offline') return []
  const { usage, latencyMs, estimate } = report.run
  const replay = report.config.mode === 'replay'
  const lines = [
    `model calls: ${integer(usage.calls)} to the API ` +
      `(generator ${integer(usage.byRole.generator.calls)}, ` +
      `judge ${integer(usage.byRole.judge.calls)}), ` +
      `${integer(usage.cacheHits)} ${replay ? 'replayed' : 'from the cache'}, ${integer(usage.retries)} retries`,
    `model cost: ${usd(usage.usd)} (generator ${usd(usage.byRole.generator.usd)}, ` +
      `judge ${usd(usage.byRole.judge.usd)}) · latency generate ${ms(latencyMs.generate)}, ` +
      `judge ${ms(latencyMs.judge)}`,
    roleCost('generator', report.config.generatorModel, usage.byRole.generator),
    roleCost('judge', report.config.judgeModel, usage.byRole.judge),
    `  cache hits: ${integer(usage.cacheHits)} ` +
      `response(s) ${replay ? 'replayed from the recording' : 'from the response cache'}, ` +
      `not paid for${usage.savedByCache.usd > 0 ? `: they would have cost ${usd(usage.savedByCache.usd)}` : ''}`,
    promptCachingLine(usage),
    ...(usage.savedByBatch.calls > 0
      ? [
          `  batch discount: ${integer(usage.savedByBatch.calls)} call(s) answered in Message Batches: ` +
            `saved ${usd(usage.savedByBatch.usd)}`,
        ]
      : []),
    ...(estimate
      ? [
          `  estimated before the run: ~${usd(estimate.usd)} ` +
            `(ceiling ${usd(estimate.worstCaseUsd)})${estimate.maxUsd === null ? '' : `, cap EVAL_MAX_USD ${usd(estimate.maxUsd)}`}`,
        ]
      : []),
    ...report.run.batches.map(
      (b) =>
        `  batch ${b.id}: ${b.requests} request(s): ${b.succeeded} succeeded, ${b.errored} ` +
        `errored, ${b.expired} expired${b.canceled > 0 ? `, ${b.canceled} canceled` : ''}; ${b.resent} sent ` +
        `again as normal calls, ${b.failed} judge error(s); ${b.polls} poll(s), ${(b.wallMs / 1000).toFixed(1)} s`,
    ),
  ]
  const { judgeErrors, judgeErrorRate } = report.summary
  if (judgeErrors !== null && judgeErrorRate !== null) {
    const over = judgeErrorRate > report.config.maxJudgeErrorRate
    lines.push(
      `judge errors: ${judgeErrors} answer(s), rate ${judgeErrorRate} ` +
        `(limit ${report.config.maxJudgeErrorRate}${over ? ': the gate fails' : ''})`,
    )
  }
  return lines
}
