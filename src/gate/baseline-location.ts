// Where baselines live and how to accept one: what hints name, kept apart from the files' reading and writing.

/**
 * The baseline folder of a mode: baseline/ offline, baseline/live/ live and record, baseline/replay/ replay (a
 * recording's numbers are neither a live model's nor the offline judge's).
 */
export function baselineDirFor(root: string, mode: 'offline' | 'live' | 'record' | 'replay'): string {
  return mode === 'offline' ? root : `${root}/${mode === 'record' ? 'live' : mode}`
}
/** The accept command as hints name it: what a user types in their own project, not one of this repo's scripts. */
export const ACCEPT_BASELINE = 'npx vitest run --project eval -u'
export const HOW_TO_CREATE_BASELINE =
  `create it with \`${ACCEPT_BASELINE}\` under the same EVAL_MODE, ` +
  `and commit it (one folder per mode under the config's baseline root: offline at the root, ` +
  `live/ and replay/ inside)`
