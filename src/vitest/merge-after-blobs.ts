import { join, relative } from 'node:path'
import type { Vitest } from 'vitest/node'
import { loadProjectConfig } from '../config/load-project-config.ts'
import { runFailsGate } from '../gate/gate.ts'
import { InputError } from '../contract/input-error.ts'
import { renderTerminalSummary } from '../report/render-terminal.ts'
import { writeReports } from '../report/write-report.ts'
import { mergedReportOfBlobs } from '../shard/merged-report.ts'
import { shardWitnessesFromTasks } from '../shard/shard-witness.ts'
import type { RagEvalProjectOptions } from './rag-eval-project.ts'

/**
 * `vitest --merge-reports` after `vitest run --shard=i/n --reporter=blob` on n machines: the shards'
 * measurements (<reports>/shards/, next to the blobs in CI) merged into the report one run would have
 * written (latest.json, latest.md), gated against the baseline, printed; under GATE=1 a failed gate sets
 * the exit code, as the metric cases of a single run would. A merge that cannot be made fails the run.
 */
export async function mergeShardsAfterBlobs(vitest: Vitest, options: RagEvalProjectOptions): Promise<void> {
  const log = (text: string) => vitest.logger.log(text)
  try {
    const project = await loadProjectConfig({ configFile: options.config, overrides: options.inline })
    // Each shard file is checked against the witness its shard's blob carries: a stale or missing piece fails the merge.
    const witnesses = shardWitnessesFromTasks(vitest.state.getFiles())
    const report = mergedReportOfBlobs(project, [join(project.reports, 'shards')], project.baseline, witnesses)
    writeReports(report, project.reports)
    const reports = relative(process.cwd(), project.reports) || '.'
    log(
      `\nRAG evaluation, merged from its shards (${reports}/latest.json, ${reports}/latest.md)\n\n${renderTerminalSummary(report)}`,
    )
    if (process.env.GATE === '1' && runFailsGate(report)) process.exitCode = 1
  } catch (error) {
    log(
      `\nRAG evaluation: the shards could not be merged: ${error instanceof InputError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
    )
    process.exitCode = 1
  }
}
