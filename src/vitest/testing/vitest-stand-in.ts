// Stands in for the Vitest process in the worker tests: runs the eval project's evaluation (the forked
// worker) as the global setup does, prints the outcome as one JSON line, and can be killed at any time.
import { startEvaluationHost } from '../evaluation-host.ts'
import { decodeRun } from '../shared-run.ts'

const evaluation = decodeRun((await startEvaluationHost('child').evaluate({ options: { inline: {} }, role: 'run' })).json)
process.stdout.write(`${JSON.stringify(evaluation.ok ? { ok: true } : evaluation)}\n`)
