import type { EvalConfig } from '../../contract/eval-config-schema.ts'
import { InputError } from '../../contract/input-error.ts'
import type { CorpusDocument } from '../../load/corpus.ts'
import { checkRelevantGrade, loadGoldenSet } from '../../load/golden-set.ts'
import { keptPieceCounts } from '../../text/token-count-cache.ts'
import { bestChunksOfNoneQuestions } from './best-chunks.ts'
import { lintGoldenSet, RULES_NEEDING_TEXT } from './lint-golden-set.ts'
import { findingsOfLoaderError } from './loader-findings.ts'
import type { LintReport } from './render-findings.ts'
import type { TypeFloors } from './type-distribution.ts'

export interface GoldenFileToCheck {
  goldenSet: string
  /** The corpus; null when the system owns its documents: the rules that read text are skipped, and said so. */
  docs: readonly CorpusDocument[] | null
  /** How the report names the corpus. */
  corpus: string
  /** The config file, named when the rules that read text are skipped. */
  source: string
  config: EvalConfig
  floors: TypeFloors
  /** The project's root, where the tokenizer's counts are kept between runs. */
  root: string
  /** The project's access rule, for the cross-tenant probes (probeDocIds). */
  mayRead?: (userContext: Record<string, unknown>, docId: string) => boolean
}

/**
 * golden:check on a file: the loader's checks, relevantGrade, then every lint rule; a file that does not load reports
 * only the loader's findings.
 */
export async function checkGoldenFile(input: GoldenFileToCheck): Promise<LintReport> {
  const { goldenSet, docs, corpus, config } = input
  const skipped =
    docs === null
      ? {
          rules: RULES_NEEDING_TEXT,
          reason: `no document text (corpus is null in ${input.source}); pass --corpus <folder> to run them`,
        }
      : undefined
  try {
    const questions = loadGoldenSet(goldenSet, docs)
    checkRelevantGrade(questions, config.relevantGrade, goldenSet)
    const tokenCounts = keptPieceCounts(input.root)
    const bestChunks = docs === null ? new Map<string, null>() : await bestChunksOfNoneQuestions(questions, docs, config)
    tokenCounts.keep()
    const findings = lintGoldenSet({
      questions,
      docs,
      bestChunks,
      floors: input.floors,
      ...(input.mayRead ? { mayRead: input.mayRead } : {}),
    })
    return { goldenSet, corpus, questions: questions.length, complete: true, findings, skipped }
  } catch (error) {
    if (!(error instanceof InputError)) throw error
    return {
      goldenSet,
      corpus,
      questions: null,
      complete: false,
      findings: findingsOfLoaderError(error.message, goldenSet),
      skipped,
    }
  }
}
