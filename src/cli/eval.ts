import { parseArgs } from 'node:util'
import { InputError } from '../load/input-error.ts'
import { renderTerminalSummary } from '../report/render-terminal.ts'
import { writeReports } from '../report/write-report.ts'
import { defaultPaths, evaluate } from '../run/evaluate.ts'
import { runCli } from './run-cli.ts'
import { BASELINE_ROOT } from '../gate/baseline-files.ts'
import { judgeErrorFailure } from '../gate/gate.ts'

const USAGE = `usage: pnpm eval [--tier retrieval|full] [--out reports] [--corpus corpus] [--golden evals/golden-set.json] [--config evals/eval.config.json] [--labels evals/human-labels.json]
  Runs the evaluation of the built-in system on a corpus folder and a golden set and writes
  <out>/latest.json and <out>/latest.md. EVAL_MODE: offline (default, no key), live (Claude answers and
  judges; needs ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL optional), record (live, saving every exchange under
  fixtures/recordings/<EVAL_RECORDING>), replay (from that recording only, no network). Other knobs:
  EVAL_CONTEXT_BUDGET, EVAL_CHUNK_TOKENS, EVAL_CHUNK_OVERLAP, EVAL_TOP_K, EVAL_RANK_DEPTH, EVAL_CONCURRENCY,
  EVAL_GENERATOR_MODEL, EVAL_JUDGE_MODEL, EVAL_TIMEOUT_MS, EVAL_MAX_RETRIES, EVAL_CACHE, EVAL_MAX_USD (a spending
  cap: the run stops before a request could cross it, exit 2), EVAL_BATCH=1 (the judge through the Message
  Batches API, half price) (see README). Live and record runs print a cost estimate before any model call.
  Compares with --baseline (default baseline/; '' to skip); with GATE=1 a regression, a missing baseline
  or a judge-error rate above EVAL_MAX_JUDGE_ERROR_RATE exits 1.`

runCli('eval', async () => {
  const defaults = defaultPaths('.')
  const { values } = parseArgs({
    options: {
      tier: { type: 'string', default: 'full' },
      out: { type: 'string', default: 'reports' },
      corpus: { type: 'string', default: defaults.corpusDir },
      golden: { type: 'string', default: defaults.goldenSetFile },
      config: { type: 'string', default: defaults.configFile },
      labels: { type: 'string', default: defaults.humanLabelsFile },
      baseline: { type: 'string', default: BASELINE_ROOT },
      // Only the progress lines (cost estimate, batches): the Vitest reporter prints the summary itself.
      quiet: { type: 'boolean', default: false },
      help: { type: 'boolean' },
    },
    strict: true,
  })
  if (values.help) {
    console.log(USAGE)
    return 0
  }
  if (values.tier !== 'retrieval' && values.tier !== 'full') throw new InputError(`--tier ${values.tier}: expected retrieval or full`)
  const paths = { corpusDir: values.corpus, goldenSetFile: values.golden, configFile: values.config, humanLabelsFile: values.labels }
  // The cost estimate (before any model call) and the Message Batches progress go to the terminal as they come.
  const report = await evaluate(paths, { tier: values.tier, baselineRoot: values.baseline === '' ? null : values.baseline, log: (line) => console.log(line) })
  const written = writeReports(report, values.out)
  if (!values.quiet) {
    console.log(`reports: ${written.json}, ${written.markdown} (${report.run.durationMs.toFixed(0)} ms)\n`)
    console.log(renderTerminalSummary(report))
  }
  // GATE=1: the exit code says whether the run regressed (a missing baseline fails too), or its judge failed too often.
  const failed = (report.gate !== null && !report.gate.passed) || judgeErrorFailure(report) !== null
  return process.env.GATE === '1' && failed ? 1 : 0
})
