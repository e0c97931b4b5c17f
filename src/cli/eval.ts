import { parseArgs } from 'node:util'
import { InputError } from '../load/input-error.ts'
import { renderTerminalSummary } from '../report/render-terminal.ts'
import { writeReports } from '../report/write-report.ts'
import { defaultPaths, evaluate } from '../run/evaluate.ts'
import { runCli } from './run-cli.ts'

const USAGE = `usage: pnpm eval [--tier retrieval|full] [--out reports] [--corpus corpus] [--golden evals/golden-set.json] [--config evals/eval.config.json]
  Runs the offline evaluation of the built-in system on a corpus folder and a golden set and writes
  <out>/latest.json and <out>/latest.md. Knobs: EVAL_CONTEXT_BUDGET, EVAL_CHUNK_TOKENS, EVAL_CHUNK_OVERLAP,
  EVAL_TOP_K, EVAL_RANK_DEPTH, EVAL_CONCURRENCY, EVAL_MODE (see README).`

runCli('eval', async () => {
  const defaults = defaultPaths('.')
  const { values } = parseArgs({
    options: {
      tier: { type: 'string', default: 'full' },
      out: { type: 'string', default: 'reports' },
      corpus: { type: 'string', default: defaults.corpusDir },
      golden: { type: 'string', default: defaults.goldenSetFile },
      config: { type: 'string', default: defaults.configFile },
      help: { type: 'boolean' },
    },
    strict: true,
  })
  if (values.help) {
    console.log(USAGE)
    return 0
  }
  if (values.tier !== 'retrieval' && values.tier !== 'full') throw new InputError(`--tier ${values.tier}: expected retrieval or full`)
  const paths = { corpusDir: values.corpus, goldenSetFile: values.golden, configFile: values.config }
  const report = await evaluate(paths, { tier: values.tier })
  const written = writeReports(report, values.out)
  console.log(renderTerminalSummary(report))
  console.log(`\nreports: ${written.json}, ${written.markdown} (${report.run.durationMs.toFixed(0)} ms)`)
  return 0
})
