/** `vitest run --project eval` as a user runs it from this repository's root (arguments of `node`). */
export const EVAL_PROJECT_RUN = ['node_modules/vitest/vitest.mjs', 'run', '--project', 'eval']

/**
 * The environment of such a run: this test run's own CI, GATE and EVAL_STRICT left out (each changes what the
 * run fails on and reports), no colours in its output; `env` on top.
 */
export function evalProjectEnv(env: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { ...process.env, CI: '', GATE: '', EVAL_STRICT: '', FORCE_COLOR: '0', NO_COLOR: '1', ...env }
}
