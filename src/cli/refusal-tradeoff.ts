import { parseArgs } from 'node:util'
import { formatMetric, formatTable } from '../report/format-table.ts'
import { defaultPaths, evaluate } from '../run/evaluate.ts'
import { runCli } from './run-cli.ts'

/**
 * The refusal trade-off of the offline answerer on the golden set: for each threshold, the refusal rate
 * on none questions against the false-refusal rate on answerable ones (and what coverage it leaves).
 * Prints a Markdown table for docs/refusal-threshold.md.
 */
runCli('eval:refusal-tradeoff', async () => {
  const { values } = parseArgs({ options: { from: { type: 'string', default: '0.3' }, to: { type: 'string', default: '0.9' }, step: { type: 'string', default: '0.05' } } })
  const [from, to, step] = [Number(values.from), Number(values.to), Number(values.step)]
  const rows = [['threshold', 'refusal rate (none)', 'false refusals (answerable)', 'coverage', 'answer relevancy']]
  for (let threshold = from; threshold <= to + 1e-9; threshold += step) {
    const fixed = threshold.toFixed(2)
    const { summary } = await evaluate(defaultPaths('.'), { tier: 'full', env: { ...process.env, EVAL_REFUSAL_THRESHOLD: fixed } })
    rows.push([fixed, formatMetric(summary.refusalRate), formatMetric(summary.falseRefusalRate), formatMetric(summary.coverage), formatMetric(summary.answerRelevancy)])
  }
  console.log(formatTable(rows, 'markdown'))
})
