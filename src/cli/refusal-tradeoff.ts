import { formatMetric, formatTable } from '../common/format-table.ts'
import { evaluate } from '../run/evaluate.ts'
import { decimal, positiveNumber } from './arg-kinds.ts'
import { option, UsageError } from './args.ts'
import { projectWith } from './cli-project.ts'
import { defineCommand } from './command.ts'

const threshold = decimal({ min: 0, max: 1 })

/**
 * The refusal trade-off of the offline answerer on the golden set: for each threshold, the refusal rate
 * on none questions against the false-refusal rate on answerable ones (and what coverage it leaves).
 * Prints a Markdown table for docs/refusal-threshold.md.
 */
export const command = defineCommand({
  usage: `usage: rag-eval refusal-tradeoff [--from 0.3] [--to 0.9] [--step 0.05]`,
  description: `  Runs the full offline evaluation of the config's project (rag-eval --config <file> for another) once per refusal threshold from --from to --to (inclusive) in steps
  of --step, and prints a Markdown table: refusal rate on none questions, false refusals on answerable
  ones, coverage and answer relevancy (docs/refusal-threshold.md).`,
  options: {
    from: option(threshold, { default: '0.3' }),
    to: option(threshold, { default: '0.9' }),
    step: option(positiveNumber, { default: '0.05' }),
  },
  run: async ({ values: { from, to, step }, context }) => {
    if (to < from) throw new UsageError(`--to ${to}: expected at least --from (${from})`)
    const project = await projectWith(context.config, context)
    const rows = [['threshold', 'refusal rate (none)', 'false refusals (answerable)', 'coverage', 'answer relevancy']]
    // Thresholds by index, not by adding step to a float: the last one is exact and the count is known.
    const count = Math.floor((to - from) / step + 1e-9) + 1
    for (let i = 0; i < count; i++) {
      const fixed = (from + i * step).toFixed(2)
      const { summary } = await evaluate(project, { tier: 'full', env: { ...context.env, EVAL_REFUSAL_THRESHOLD: fixed } })
      rows.push([
        fixed,
        formatMetric(summary.refusalRate),
        formatMetric(summary.falseRefusalRate),
        formatMetric(summary.coverage),
        formatMetric(summary.answerRelevancy),
      ])
    }
    context.out(`${formatTable(rows, 'markdown')}\n`)
    return 0
  },
})
