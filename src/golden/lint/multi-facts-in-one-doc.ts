import type { CorpusDocument } from '../../load/corpus.ts'
import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { contentTerms } from '../../text/text-analyzer.ts'
import { factCount, keyFacts, statedFacts, unstatedFacts, type FactEvidence, type KeyFacts } from '../../text/key-facts.ts'
import { finding, type Finding } from './finding.ts'
import { documentText } from './unsupported-facts.ts'

/** A term is distinctive when at most this share of the corpus documents contain it. */
export const DISTINCTIVE_DOC_SHARE = 0.2

/**
 * Content terms without a possessive "'s" (or "’s"), as indexWords reads words: otherwise "Sigrid's" stems to
 * "sigrid'", never meets the document's "Sigrid", and the bridge document looks as if it added nothing.
 */
export function termsWithoutPossessives(text: string): string[] {
  return contentTerms(text.replace(/([\p{L}\p{N}])['\u2019]s(?![\p{L}\p{N}])/gu, '$1'))
}

/** The content-term set of every document, and the terms distinctive in the corpus. */
export function corpusTerms(docs: readonly CorpusDocument[]): {
  termsByDoc: Map<string, Set<string>>
  distinctive: (term: string) => boolean
} {
  const termsByDoc = new Map(docs.map((doc) => [doc.id, new Set(termsWithoutPossessives(documentText(doc)))]))
  const df = new Map<string, number>()
  for (const terms of termsByDoc.values()) for (const term of terms) df.set(term, (df.get(term) ?? 0) + 1)
  const limit = Math.max(1, Math.floor(docs.length * DISTINCTIVE_DOC_SHARE))
  return { termsByDoc, distinctive: (term) => (df.get(term) ?? 0) <= limit }
}

/**
 * Answer docs stating every key fact (numbers as quantities only: the "1" of "SEV1" is not "1 hour") and holding
 * every distinctive term (in at most a fifth of the corpus) that any answer doc states or holds; with the facts.
 */
export function loneHolders(
  question: GoldenQuestion,
  evidence: ReadonlyMap<string, FactEvidence>,
  terms: ReturnType<typeof corpusTerms>,
): { facts: KeyFacts; holders: string[] } {
  const docs = question.answerDocIds.flatMap((id) => {
    const facts = evidence.get(id)
    const docTerms = terms.termsByDoc.get(id)
    return facts === undefined || docTerms === undefined ? [] : [{ id, facts, terms: docTerms }]
  })
  const facts = statedFacts(
    keyFacts(question.goldAnswer ?? ''),
    docs.map((doc) => doc.facts),
  )
  const asked = [...termsWithoutPossessives(question.question), ...termsWithoutPossessives(question.goldAnswer ?? '')]
  const distinctive = [...new Set(asked.filter(terms.distinctive))].filter((term) => docs.some((doc) => doc.terms.has(term)))
  const holders = docs.filter(
    (doc) => factCount(unstatedFacts(facts, [doc.facts])) === 0 && distinctive.every((term) => doc.terms.has(term)),
  )
  return { facts, holders: holders.map((doc) => doc.id) }
}

/**
 * A multi question one of whose answer docs states all its gold-answer facts and distinctive terms (error): it is a
 * single question, and the multi hit punishes skipping an unneeded document. Questions with no number are not judged.
 */
export function multiFactsInOneDoc(
  questions: readonly GoldenQuestion[],
  evidence: ReadonlyMap<string, FactEvidence>,
  terms: ReturnType<typeof corpusTerms>,
): Finding[] {
  const findings: Finding[] = []
  for (const question of questions) {
    if (question.type !== 'multi' || question.goldAnswer === undefined) continue
    const {
      facts,
      holders: [holder],
    } = loneHolders(question, evidence, terms)
    if (facts.numbers.length === 0 || holder === undefined) continue
    const others = question.answerDocIds.filter((id) => id !== holder)
    findings.push(
      finding(
        'multi-facts-in-one-doc',
        question.id,
        `${holder} alone states every fact of its goldAnswer (${facts.numbers.join(', ')} and ${facts.terms.length} terms) ` +
          `and every distinctive term of the question and answer; ${others.join(', ')} ` +
          `add${others.length === 1 ? 's' : ''} nothing`,
        `put in the goldAnswer the fact only ${others.join(' / ')} state${others.length === 1 ? 's' : ''}, ` +
          `or make it a single question with answerDocIds ["${holder}"]`,
      ),
    )
  }
  return findings
}
