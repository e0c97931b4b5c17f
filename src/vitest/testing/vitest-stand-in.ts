// Stands in for the Vitest process in the host tests: runs the eval project's evaluation in its child host as the
// global setup does (the report into $STAND_IN_REPORT, ragEval()'s inline options from $STAND_IN_INLINE), prints the
// outcome as one JSON line, and can be killed at any time.
import { evaluateInChild } from '../evaluation-host.ts'

const inline = JSON.parse(process.env.STAND_IN_INLINE ?? '{}') as Record<string, unknown>
const { run } = await evaluateInChild({ options: { inline }, role: 'run', reportFile: process.env.STAND_IN_REPORT! })
process.stdout.write(`${JSON.stringify(run.ok ? { ok: true } : run)}\n`)
