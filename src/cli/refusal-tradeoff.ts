import { formatMetric, formatTable } from '../common/format-table.ts'
import { METRICS } from '../contract/metrics/metric-table.ts'
import { summaryValue } from '../contract/metrics/metric.ts'
import { evaluate } from '../run/evaluate.ts'
import { decimal, positiveNumber } from './arg-kinds.ts'
import { option, UsageError } from './args.ts'
import { projectWith } from './cli-project.ts'
import { defineCommand } from './command.ts'

const threshold = decimal({ min: 0, max: 1 })

/**
 * Prints docs/refusal-threshold.md's table: per threshold, the offline answerer's refusal rate on none questions, its
 * false-refusal rate on answerable ones, and the generation metrics left.
 */
export const command = defineCommand({
  usage: `usage: rag-eval refusal-tradeoff [--from 0.3] [--to 0.9] [--step 0.05]`,
  description: `  Runs the full offline evaluation of the config's project (rag-eval --config <file> for another) once per refusal threshold from --from to --to (inclusive) in steps
  of --step, and prints a Markdown table of the metrics of the answer (every metric not read from the ranking,
  from the refusal rates on), a row per threshold (docs/refusal-threshold.md).`,
  options: {
    from: option(threshold, { default: '0.3' }),
    to: option(threshold, { default: '0.9' }),
    step: option(positiveNumber, { default: '0.05' }),
  },
  run: async ({ values: { from, to, step }, context }) => {
    if (to < from) throw new UsageError(`--to ${to}: expected at least --from (${from})`)
    const project = await projectWith(context.config, context)
    const columns = METRICS.filter((metric) => metric.source !== 'retrieval' && !metric.reportedApart)
    const rows = [['threshold', ...columns.map((metric) => metric.label)]]
    // Thresholds by index, not by adding step to a float: the last one is exact and the count is known.
    const count = Math.floor((to - from) / step + 1e-9) + 1
    for (let i = 0; i < count; i++) {
      const fixed = (from + i * step).toFixed(2)
      const { summary } = await evaluate(project, { tier: 'full', env: { ...context.env, EVAL_REFUSAL_THRESHOLD: fixed } })
      rows.push([fixed, ...columns.map((metric) => formatMetric(summaryValue(summary, metric.name)))])
    }
    context.out(`${formatTable(rows, 'markdown')}\n`)
    return 0
  },
})
