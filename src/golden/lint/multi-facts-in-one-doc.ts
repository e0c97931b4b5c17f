import type { CorpusDocument } from '../../load/corpus.ts'
import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { contentTerms } from '../../text/text-analyzer.ts'
import { factCount, keyFacts, statedFacts, unstatedFacts, type FactEvidence, type KeyFacts } from '../../text/key-facts.ts'
import { finding, type Finding } from './finding.ts'
import { documentText } from './unsupported-facts.ts'

/** A term is distinctive when at most this share of the corpus documents contain it. */
export const DISTINCTIVE_DOC_SHARE = 0.2

/**
 * Content terms with a possessive "'s" (or "’s") dropped first, as the retriever indexes words
 * (indexWords): otherwise "Sigrid's" in a question stems to "sigrid'" and never meets the "Sigrid" of the
 * document naming her, and that bridge document looks as if it added nothing.
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
 * The answer docs that each state every key fact of the gold answer (text/key-facts.ts; a document's numbers
 * read as quantities only: the "1" of "SEV1" does not state "within 1 hour") that any of them states, and hold
 * every distinctive term (in at most a fifth of the corpus documents) of the question and answer that any of them
 * holds; with the facts stated.
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
 * A multi question whose gold-answer facts all sit in one of its answer documents (error): that document
 * answers it alone, so it is a single question that costs more context, and the multi hit punishes systems
 * for skipping a document the answer does not need. The document must also hold every distinctive term any
 * answer doc holds (loneHolders), which keeps bridge hops: "Can I ship a schema migration on 20 December?" needs
 * the change-classes doc for "schema migration" though the freeze-window doc states every date. A question with
 * no number in any answer doc is not judged: the numbers are what the answer is checked for.
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
