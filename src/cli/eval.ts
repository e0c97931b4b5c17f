import { renderTerminalSummary } from '../report/render-terminal.ts'
import { writeReports } from '../report/write-report.ts'
import { evaluate } from '../run/evaluate.ts'
import { runFailsGate } from '../gate/run-failures.ts'
import { file, fileOrAbsent, folder, folderOrAbsent, oneOf } from './arg-kinds.ts'
import { flag, option } from './args.ts'
import { projectWith } from './cli-project.ts'
import { defineCommand } from './command.ts'

export const command = defineCommand({
  usage: `usage: rag-eval eval [--tier retrieval|full] [--config rag-eval.config.ts] [--out reports] [--corpus folder]
                     [--golden file] [--labels file] [--baseline folder] [--quiet]
       rag-eval retrieval [...]   (= rag-eval eval --tier retrieval)`,
  description: `  The evaluation of the config's system without Vitest (rag-eval retrieval for the retrieval
  tier; \`npx vitest run --project eval\` is the Vitest run): runs a corpus folder against a golden set and
  writes <out>/latest.json and <out>/latest.md. --corpus, --golden, --labels, --baseline and --out replace
  the config's corpus, goldenSet, humanLabels, baseline and reports. EVAL_MODE: offline (default, no key),
  live (Claude answers and judges; needs ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL optional), record (live,
  saving every exchange under fixtures/recordings/<EVAL_RECORDING>), replay (from that recording only, no
  network). Other knobs: EVAL_CONTEXT_BUDGET, EVAL_CHUNK_TOKENS, EVAL_CHUNK_OVERLAP, EVAL_TOP_K,
  EVAL_CONCURRENCY, EVAL_GENERATOR_MODEL, EVAL_JUDGE_MODEL, EVAL_TIMEOUT_MS,
  EVAL_MAX_RETRIES, EVAL_CACHE, EVAL_MAX_USD (a spending cap: the run stops before a request could cross it,
  exit 2), EVAL_BATCH=1 (the judge through the Message Batches API, half price) (docs/knobs.md). Live and
  record runs print a cost estimate before any model call. Compares with the baseline ('' to skip); with
  GATE=1 a regression, a missing baseline or a judge-error rate above EVAL_MAX_JUDGE_ERROR_RATE exits 1.
  --quiet prints only the progress lines (the Vitest reporter prints the summary itself).`,
  options: {
    tier: option(oneOf(['retrieval', 'full']), { default: 'full' }),
    config: option(file),
    out: option(folderOrAbsent),
    corpus: option(folder),
    golden: option(file),
    labels: option(fileOrAbsent),
    baseline: option(folderOrAbsent),
    quiet: flag(),
  },
  run: async ({ values, context }) => {
    const project = await projectWith(values.config ?? context.config, context, values)
    const baselineRoot = values.baseline === '' ? null : (values.baseline ?? project.baseline)
    // The cost estimate (before any model call) and the Message Batches progress go to the terminal as they come.
    const report = await evaluate(project, {
      tier: values.tier,
      baselineRoot,
      env: context.env,
      log: (line) => context.out(`${line}\n`),
    })
    const written = writeReports(report, values.out ?? project.reports, context.env)
    if (!values.quiet) {
      context.out(`reports: ${written.json}, ${written.markdown} (${report.run.durationMs.toFixed(0)} ms)\n\n`)
      context.out(`${renderTerminalSummary(report)}\n`)
    }
    // GATE=1: the exit code says whether the run regressed (a missing baseline fails too), or its judge failed too often.
    return context.env.GATE === '1' && runFailsGate(report) ? 1 : 0
  },
})
