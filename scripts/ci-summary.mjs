// Prints "N passed, N failed" from Vitest's JSON results, and exits non-zero on any failure or when
// the results are missing (a crash before Vitest could report is a failure, never a pass).
import { readFileSync } from 'node:fs'

const file = process.argv[2] ?? 'reports/vitest-results.json'
/** @typedef {{ numFailedTestSuites?: number, numFailedTests?: number, numPassedTests?: number, success?: boolean }} Results */
/** @type {Results} */
let results
try {
  // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- JSON.parse's `any`, cast to Results for the reads below
  results = /** @type {Results} */ (JSON.parse(readFileSync(file, 'utf8')))
} catch (error) {
  console.log(`no Vitest JSON results at ${file} (${error.message})`)
  console.log('0 passed, 1 failed')
  process.exit(1)
}
const failedSuites = results.numFailedTestSuites ?? 0
const failed = (results.numFailedTests ?? 0) + (failedSuites > 0 && results.numFailedTests === 0 ? failedSuites : 0)
const passed = results.numPassedTests ?? 0
console.log(`${passed} passed, ${failed} failed`)
process.exit(failed > 0 || results.success === false || passed === 0 ? 1 : 0)
