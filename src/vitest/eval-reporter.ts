import { relative } from 'node:path'
import type { Reporter, TestModule, Vitest } from 'vitest/node'
import type { Report } from '../contract/report-schema.ts'
import { readSharedRun } from './shared-run.ts'

/** Prints the evaluation the global setup shared at the end of every Vitest run, beside any other reporter. */
export default class EvalReporter implements Reporter {
  #vitest: Vitest | undefined
  #previous: Report | undefined
  /** vitest --merge-reports: prints the merged run (made in onInit, before the blobs' cases are reported). */
  #finishMerge: Promise<() => void> | undefined
  readonly #project: string

  /** `project`: the name of the eval project (ragEval({ name })) whose shared run this reporter prints. */
  constructor(project = 'eval') {
    this.#project = project
  }

  // Vitest types onInit as returning void but awaits every reporter's (Promise.all in Vitest 4's report()).
  // eslint-disable-next-line @typescript-eslint/no-misused-promises
  async onInit(vitest: Vitest): Promise<void> {
    this.#vitest = vitest
    const project = vitest.projects.find((p) => p.name === this.#project)
    // Merged before the blobs' cases are reported, so the merged gate's failures show; imported lazily because
    // vitest.config.ts loads this file and the merge pulls in the whole report assembly.
    if (project && vitest.config.mergeReports && vitest.state.blobs) {
      this.#finishMerge = import('./merge-after-blobs.ts').then((merge) =>
        merge.mergeShardsOfBlobs(vitest, project.config.provide?.ragEvalOptions ?? {}),
      )
      await this.#finishMerge
    }
  }

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>): Promise<void> {
    const vitest = this.#vitest
    const project = vitest?.projects.find((p) => p.name === this.#project)
    // Watch mode: a rerun of other projects' tests only leaves this one's last run unprinted.
    if (vitest?.config.watch && !testModules.some((module) => module.project.name === this.#project)) return
    if (this.#finishMerge) return (await this.#finishMerge)()
    const files = project?.getProvidedContext().evaluation
    if (!vitest || !files) return
    // The report only in watch mode, to show what flipped: 10,000 outcomes are not parsed here for a summary.
    const evaluation = await readSharedRun(files, vitest.config.watch)
    const log = (text: string) => vitest.logger.log(text)
    log('')
    if (!evaluation.ok) {
      log(`RAG evaluation: ${evaluation.error}`)
      return
    }
    const reports = relative(process.cwd(), evaluation.reportsDir) || '.'
    if (evaluation.shard) {
      const { index, count } = evaluation.shard
      log(
        `RAG evaluation, shard ${index}/${count}: ${evaluation.questions} of the golden set's questions measured, left for the merge in ${reports}/shards/; no gate here: \`vitest --merge-reports\` reports and gates the run`,
      )
      return
    }
    const lines = [`RAG evaluation (${reports}/latest.json, ${reports}/latest.md)`, '']
    // Watch mode: what flipped since the last run (its renderer loaded only then).
    if (this.#previous && evaluation.report)
      lines.push(...(await import('../report/render-run-diff.ts')).renderRunDiff(this.#previous, evaluation.report), '')
    // EVAL_COMPARE: run B against this run, before the run's own summary (which ends with the gate).
    const comparison = evaluation.comparison
    if (comparison)
      lines.push(
        comparison.ok
          ? `A/B comparison (EVAL_COMPARE, ${reports}/compare.json, ${reports}/compare.md)\n\n${comparison.text}`
          : `A/B comparison (EVAL_COMPARE): ${comparison.error}\n`,
      )
    // Rendered where the report was made: this module, which Vitest loads before the run, stays light.
    lines.push(evaluation.terminalSummary ?? '')
    log(lines.join('\n'))
    this.#previous = evaluation.report ?? undefined
  }
}
