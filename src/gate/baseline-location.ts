// Where baselines live and how to accept one: what hints name, kept apart from the files' reading and writing.

/**
 * The baseline folder of a mode. Offline runs compare with baseline/; live and record runs with
 * baseline/live/; replay runs with baseline/replay/ (a recording's numbers are not a live model's,
 * nor the offline judge's, so they never gate each other).
 */
export function baselineDirFor(root: string, mode: 'offline' | 'live' | 'record' | 'replay'): string {
  return mode === 'offline' ? root : `${root}/${mode === 'record' ? 'live' : mode}`
}
/**
 * The command that accepts a run as the baseline, as hints name it: what a user can type in their own
 * project (npx finds the project's Vitest; ragEval()'s project is named eval by default), never a
 * script of this repository's package.json.
 */
export const ACCEPT_BASELINE = 'npx vitest run --project eval -u'
export const HOW_TO_CREATE_BASELINE =
  `create it with \`${ACCEPT_BASELINE}\` under the same EVAL_MODE, ` +
  `and commit it (one folder per mode under the config's baseline root: offline at the root, ` +
  `live/ and replay/ inside)`
