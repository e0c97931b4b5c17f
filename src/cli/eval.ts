import { parseArgs } from 'node:util'
import { InputError } from '../load/input-error.ts'
import { renderTerminalSummary } from '../report/render-terminal.ts'
import { writeReports } from '../report/write-report.ts'
import { defaultPaths, evaluate } from '../run/evaluate.ts'
import { runCli } from './run-cli.ts'

const USAGE = `usage: pnpm eval [--tier retrieval|full] [--out reports]
  Runs the offline evaluation of the built-in system on corpus/ and evals/golden-set.json and writes
  <out>/latest.json and <out>/latest.md. Knobs: EVAL_CONTEXT_BUDGET, EVAL_CHUNK_TOKENS, EVAL_CHUNK_OVERLAP,
  EVAL_TOP_K, EVAL_RANK_DEPTH, EVAL_CONCURRENCY, EVAL_MODE (see README).`

runCli('eval', async () => {
  const { values } = parseArgs({
    options: { tier: { type: 'string', default: 'full' }, out: { type: 'string', default: 'reports' }, help: { type: 'boolean' } },
    strict: true,
  })
  if (values.help) {
    console.log(USAGE)
    return 0
  }
  if (values.tier !== 'retrieval' && values.tier !== 'full') throw new InputError(`--tier ${values.tier}: expected retrieval or full`)
  const report = await evaluate(defaultPaths('.'), { tier: values.tier })
  const written = writeReports(report, values.out)
  console.log(renderTerminalSummary(report))
  console.log(`\nreports: ${written.json}, ${written.markdown} (${report.run.durationMs.toFixed(0)} ms)`)
  return 0
})
