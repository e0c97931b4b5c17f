// Prints the coverage table of docs/statistics.md: every interval and test of src/statistics/ on simulated golden sets.
// Usage: pnpm sim:coverage [replicates = 2000]
import { DEFAULT_RESAMPLES } from '../src/statistics/defaults.ts'
import { coverageSimulation, simulationTable } from '../src/statistics/testing/coverage-simulation.ts'

const replicates = Number(process.argv[2] ?? 2000)
console.log(simulationTable(coverageSimulation({ replicates, resamples: DEFAULT_RESAMPLES })))
const error = Math.sqrt((0.95 * 0.05) / replicates)
console.log(`\n${replicates} replicates per row: Monte Carlo standard error ${(error * 100).toFixed(2)} points at 95% coverage.`)
