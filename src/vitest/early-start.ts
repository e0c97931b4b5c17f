import { basename } from 'node:path'

/**
 * Whether Vitest's command line plainly asks for a `vitest run` that includes the eval project, read while
 * Vitest loads vitest.config.ts: starting the evaluation's thread then, rather than in the project's
 * plugin, gives it about 0.1 s more to load before the global setup needs it. Only an unambiguous command
 * counts (Vitest's own CLI, `run` or `--run` or CI, no `--watch`, `--merge-reports` or other command, a
 * `--project` filter that names the project or a pattern); the plugin stops a thread started on a wrong
 * guess, and starts one where this declines.
 */
export function plainlyEvaluates(argv: readonly string[], env: NodeJS.ProcessEnv, project: string): boolean {
  const [, cli, ...args] = argv
  if (cli === undefined || !/^vitest(\.m?js)?$/.test(basename(cli))) return false
  const flags = args.filter((arg) => arg.startsWith('-'))
  const first = args[0] !== undefined && !args[0].startsWith('-') ? args[0] : null
  // Another command (watch, dev, bench, list, ...); a file filter has a dot or a slash.
  if (first !== null && first !== 'run' && !/[./\\]/.test(first)) return false
  const runs = first === 'run' || flags.includes('--run') || Boolean(env.CI)
  if (!runs || flags.some((flag) => flag === '--watch' || flag === '-w' || flag.startsWith('--merge-reports'))) return false
  const projects = args.flatMap((arg, i) =>
    arg === '--project' ? [args[i + 1] ?? ''] : arg.startsWith('--project=') ? [arg.slice('--project='.length)] : [],
  )
  return projects.length === 0 || projects.some((name) => name === project || name.includes('*'))
}
