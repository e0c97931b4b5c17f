import { join } from 'node:path'
import { compareReports, type SideSource } from '../compare/compare-reports.ts'
import { renderComparison } from '../compare/render-comparison.ts'
import { writeComparison } from '../compare/write-comparison.ts'
import { loadProjectConfig } from '../config/load-project-config.ts'
import { readReport } from '../report/read-report.ts'
import type { Report } from '../contract/report-schema.ts'
import { serialiseReport } from '../report/write-report.ts'
import { writeFileAtomic } from '../files/write-file-atomic.ts'
import { evaluate } from '../run/evaluate.ts'
import { parallelMeanResampler } from '../threads/index.ts'
import { file, folderOrAbsent, kind, oneOf } from './arg-kinds.ts'
import { InputError } from '../contract/input-error.ts'
import { registerSecret } from '../common/secrets.ts'
import { secretVariables } from '../config/http-headers.ts'
import { option, repeatable, UsageError, type CommandContext } from './args.ts'
import { defineCommand } from './command.ts'

/** `KEY=VALUE`: an environment variable for one side. */
const assignment = kind<[string, string]>('KEY=VALUE, e.g. EVAL_CONTEXT_BUDGET=450', (text) => {
  const match = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(text)
  if (!match) throw new InputError('expected KEY=VALUE, e.g. EVAL_CONTEXT_BUDGET=450')
  return [match[1]!, match[2]!]
})

interface Side {
  report: Report
  source: SideSource
  /** The config side's reports folder (the default --out). */
  reportsDir: string | null
}

/** A side: a report file (.json) read as it is, or a config file evaluated under its environment overrides. */
async function loadSide(
  name: 'a' | 'b',
  path: string,
  env: [string, string][],
  tier: Report['tier'],
  log: (line: string) => void,
  io: CommandContext,
): Promise<Side> {
  const overrides = Object.fromEntries(env)
  // Before the first line that shows them: an override named as a secret is redacted from then on.
  for (const { value, source } of secretVariables(overrides, `--${name}-env`)) registerSecret(value, source)
  if (path.endsWith('.json'))
    return { report: readReport(path), source: { source: path, kind: 'report', env: {}, report: null }, reportsDir: null }
  const sideEnv = { ...io.env, ...overrides }
  const project = await loadProjectConfig({ configFile: path, env: sideEnv, cwd: io.cwd })
  log(
    `evaluating ${name.toUpperCase()}: ${path}` +
      `${env.length > 0 ? ` with ${env.map(([k, v]) => `${k}=${v}`).join(' ')}` : ''} (${tier} tier)`,
  )
  const report = await evaluate(project, { tier, env: sideEnv, baselineRoot: null, log })
  return { report, source: { source: path, kind: 'config', env: overrides, report: null }, reportsDir: project.reports }
}

export const command = defineCommand({
  usage: `usage: rag-eval compare --a <config-or-report> --b <config-or-report> [--out reports] [--tier retrieval|full]
                       [--a-env KEY=VALUE]... [--b-env KEY=VALUE]...`,
  description: `  Run B against run A on the same golden set, question by question. --a and --b are
  each a config file (rag-eval.config.ts: evaluated now, offline unless EVAL_MODE says otherwise) or a
  report (a .json file written by an earlier run, e.g. reports/latest.json). --b-env KEY=VALUE (repeatable)
  sets an environment variable for B only, so one config compares with itself under another knob:
    rag-eval compare --a rag-eval.config.ts --b rag-eval.config.ts --b-env EVAL_CONTEXT_BUDGET=450
  Prints and writes <out>/compare.json and <out>/compare.md: per metric and per type, A, B, the difference,
  its 95% paired bootstrap interval and the p-value of the paired test (exact McNemar for hits and
  refusals, sign-flip permutation for continuous metrics; alpha and resamples from A's config: EVAL_ALPHA,
  bootstrapResamples), and the questions that flipped each way with their evidence. Each side's system errors
  are listed (compare.json: systemErrors) and those questions left out of the paired tests. A side evaluated from a
  config also writes its report (<out>/compare-a.json, compare-b.json). Both sides must have the same
  question ids. --out: default the reports folder of A's config (else reports).`,
  options: {
    a: option(file, { required: true }),
    b: option(file, { required: true }),
    out: option(folderOrAbsent),
    tier: option(oneOf(['retrieval', 'full']), { default: 'full' }),
    'a-env': repeatable(assignment),
    'b-env': repeatable(assignment),
  },
  run: async ({ values, context }) => {
    // Before anything runs: an override for a report side could never apply.
    for (const name of ['a', 'b'] as const) {
      if (values[name].endsWith('.json') && values[`${name}-env`].length > 0) {
        throw new UsageError(
          `--${name}-env: --${name} ${values[name]} is a report, already measured; environment overrides apply to a config file`,
        )
      }
    }
    const log = (line: string) => context.out(`${line}\n`)
    const a = await loadSide('a', values.a, values['a-env'], values.tier, log, context)
    const b = await loadSide('b', values.b, values['b-env'], values.tier, log, context)
    const out = values.out ?? a.reportsDir ?? b.reportsDir ?? 'reports'
    const written = (side: Side, name: string) => {
      if (side.source.kind !== 'config') return side.source
      const path = join(out, `compare-${name}.json`)
      writeFileAtomic(path, serialiseReport(side.report))
      return { ...side.source, report: path }
    }
    const sources = { a: written(a, 'a'), b: written(b, 'b') }
    const result = compareReports(a.report, b.report, sources, { resampler: parallelMeanResampler })
    const { json, markdown, charts } = writeComparison(out, result)
    context.out(`\n${renderComparison(result, 'text')}\nwritten: ${json}, ${markdown}, ${charts.join(', ')}\n`)
    return 0
  },
})
