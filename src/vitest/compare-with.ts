import { compareReports } from '../compare/compare-reports.ts'
import { renderComparison } from '../compare/render-comparison.ts'
import { writeComparison } from '../compare/write-comparison.ts'
import { InputError } from '../contract/input-error.ts'
import { parallelMeanResampler } from '../threads/index.ts'
import type { RagEvalProjectOptions } from './rag-eval-project.ts'
import type { Report } from '../contract/report-schema.ts'
import type { SharedRun } from './shared-run.ts'

/**
 * EVAL_COMPARE=<config>: compares that config's run (B) with the project's (A), writing compare.json and
 * compare.md beside A's reports (docs/comparing.md); differing golden sets or a failed B fail the comparison.
 */
export async function compareWith(
  bConfig: string,
  options: RagEvalProjectOptions,
  a: { report: Report; reportsDir: string },
  b: Promise<SharedRun>,
): Promise<(SharedRun & { ok: true })['comparison']> {
  const measured = await b
  if (!measured.ok) return { ok: false, error: `B (EVAL_COMPARE=${bConfig}) failed: ${measured.error}` }
  const side = (source: string) => ({ source, kind: 'config' as const, env: {}, report: null })
  try {
    const result = compareReports(
      a.report,
      measured.report,
      {
        a: side(options.config ?? (process.env.RAG_EVAL_CONFIG || 'the project config')),
        b: side(bConfig),
      },
      { resampler: parallelMeanResampler },
    )
    writeComparison(a.reportsDir, result)
    return { ok: true, result, text: renderComparison(result, 'text') }
  } catch (error) {
    if (error instanceof InputError) return { ok: false, error: error.message }
    throw error
  }
}
