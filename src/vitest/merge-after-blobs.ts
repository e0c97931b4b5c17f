import { join, relative } from 'node:path'
import type { Vitest } from 'vitest/node'
import { loadProjectConfig } from '../config/load-project-config.ts'
import { runFailsGate } from '../gate/run-failures.ts'
import { InputError } from '../contract/input-error.ts'
import { renderTerminalSummary } from '../report/render-terminal.ts'
import { writeReports } from '../report/write-report.ts'
import { mergedReportOfBlobs } from '../shard/merged-report.ts'
import { shardWitnessesFromTasks } from '../shard/shard-witness.ts'
import { failMergedQuestionCases, type MergedTask } from './merged-view.ts'
import type { RagEvalProjectOptions } from './rag-eval-project.ts'

/**
 * `vitest --merge-reports`: merges the shards' measurements into one run's report and gates it (docs/scaling.md).
 * Called before any reporter sees the blobs' cases, so those the merged gate fails show failed; the returned
 * function prints the merge and, under GATE=1, sets the exit code.
 */
export async function mergeShardsOfBlobs(vitest: Vitest, options: RagEvalProjectOptions): Promise<() => void> {
  const log = (text: string) => vitest.logger.log(text)
  const gating = process.env.GATE === '1'
  try {
    const project = await loadProjectConfig({ configFile: options.config, overrides: options.inline })
    const files = (vitest.state.blobs?.files ?? []) as unknown as MergedTask[]
    // Each shard file is checked against the witness its shard's blob carries: a stale or missing piece fails the merge.
    const witnesses = shardWitnessesFromTasks(files)
    const report = mergedReportOfBlobs(project, [join(project.reports, 'shards')], project.baseline, witnesses)
    const unshown = failMergedQuestionCases(files, report, gating)
    writeReports(report, project.reports, process.env)
    const reports = relative(process.cwd(), project.reports) || '.'
    return () => {
      log(
        `\nRAG evaluation, merged from its shards (${reports}/latest.json, ${reports}/latest.md)\n\n${renderTerminalSummary(report)}`,
      )
      if (unshown.length > 0)
        log(`the merged run fails question(s) no blob has a case of: ${unshown.join(', ')} (their shards' blobs are incomplete)`)
      if (gating && runFailsGate(report)) process.exitCode = 1
      if (unshown.length > 0) process.exitCode = 1
    }
  } catch (error) {
    return () => {
      log(
        `\nRAG evaluation: the shards could not be merged: ${error instanceof InputError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
      )
      process.exitCode = 1
    }
  }
}
