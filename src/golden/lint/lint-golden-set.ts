import type { CorpusDocument } from '../../load/corpus.ts'
import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { contradictionWithoutGoverning } from './contradiction-without-governing.ts'
import { duplicateQuestions } from './duplicate-questions.ts'
import { RULE_IDS, type Finding, type RuleId } from './finding.ts'
import { corpusTerms, multiFactsInOneDoc } from './multi-facts-in-one-doc.ts'
import { noneTooEasy, type BestChunk } from './none-too-easy.ts'
import { probeReadable } from './probe-readable.ts'
import { placeholderGoldAnswers } from './placeholder-gold-answer.ts'
import { controlCharacters } from './control-characters.ts'
import { applySuppressions } from './suppressions.ts'
import { DEFAULT_FLOORS, typeDistribution, type TypeFloors } from './type-distribution.ts'
import { quantityEvidence } from '../../text/key-facts.ts'
import { corpusEvidence, unsupportedFacts } from './unsupported-facts.ts'

export interface LintInput {
  /** The golden set as the loader returned it (schema and references already valid). */
  questions: readonly GoldenQuestion[]
  /** The corpus; null when the system owns its documents (corpus: null): the rules that read text are skipped. */
  docs: readonly CorpusDocument[] | null
  /** The built-in system's best chunk per none question (best-chunks.ts). */
  bestChunks: ReadonlyMap<string, BestChunk | null>
  floors?: TypeFloors
  /** The project's access rule (load/access-rules.ts), for the cross-tenant probes; absent: not checked. */
  mayRead?: (userContext: Record<string, unknown>, docId: string) => boolean
}

/** Errors first, then by rule (the order of RULES), then by question order in the file; set-level findings last within a rule. */
export function sortFindings(findings: readonly Finding[], questionOrder: readonly string[]): Finding[] {
  const position = new Map(questionOrder.map((id, index) => [id, index]))
  const at = (f: Finding) =>
    f.questionId === null ? Number.MAX_SAFE_INTEGER : (position.get(f.questionId) ?? Number.MAX_SAFE_INTEGER - 1)
  return findings
    .map((f, index) => ({ f, index }))
    .sort(
      (a, b) =>
        Number(a.f.severity === 'warning') - Number(b.f.severity === 'warning') ||
        RULE_IDS.indexOf(a.f.rule) - RULE_IDS.indexOf(b.f.rule) ||
        at(a.f) - at(b.f) ||
        a.index - b.index,
    )
    .map(({ f }) => f)
}

/**
 * Every rule after the loader's, pure over questions, corpus and precomputed rankings; findings the notes accept are
 * dropped, the rest sorted.
 */
export function lintGoldenSet(input: LintInput): Finding[] {
  const { questions, docs } = input
  const evidence = docs === null ? null : corpusEvidence(docs)
  const withText =
    docs === null || evidence === null
      ? []
      : [
          ...unsupportedFacts(questions, docs, evidence),
          ...multiFactsInOneDoc(questions, corpusEvidence(docs, quantityEvidence), corpusTerms(docs)),
        ]
  const findings = [
    ...duplicateQuestions(questions),
    ...withText,
    ...contradictionWithoutGoverning(questions, docs ?? []),
    ...placeholderGoldAnswers(questions),
    ...(input.mayRead === undefined ? [] : probeReadable(questions, input.mayRead)),
    ...controlCharacters(questions),
    ...(docs === null ? [] : noneTooEasy(questions, input.bestChunks)),
    ...typeDistribution(questions, input.floors ?? DEFAULT_FLOORS),
  ]
  return sortFindings(
    applySuppressions(findings, questions),
    questions.map((q) => q.id),
  )
}

/** The rules that read the documents' text, and so cannot run when the system owns its documents (corpus: null). */
export const RULES_NEEDING_TEXT = [
  'unknown-doc',
  'unsupported-fact',
  'multi-facts-in-one-doc',
  'none-too-easy',
] as const satisfies readonly RuleId[]
