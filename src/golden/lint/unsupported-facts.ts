import type { CorpusDocument } from '../../load/corpus.ts'
import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { factEvidence, keyFacts, unstatedFacts, type FactEvidence, type KeyFacts } from '../../text/key-facts.ts'
import { finding, type Finding } from './finding.ts'

/** How many other corpus documents that state a missing number are named in the fix. */
const SUGGESTED_DOCS = 3

/** The text of a corpus document the facts are checked against: its title and body. */
export function documentText(doc: { title: string; body: string }): string {
  return `${doc.title}\n${doc.body}`
}

/** The evidence of every document (factEvidence, or another reader of text/key-facts.ts), computed once per lint run. */
export function corpusEvidence(
  docs: readonly CorpusDocument[],
  read: (text: string) => FactEvidence = factEvidence,
): Map<string, FactEvidence> {
  return new Map(docs.map((doc) => [doc.id, read(documentText(doc))]))
}

/**
 * The key facts of a question's gold answer, as coverage reads them (text/key-facts.ts), that the question
 * itself does not already give (a gold answer may restate the user's "75%" or "USD 8,000"; those need no
 * document).
 */
export function goldFacts(question: GoldenQuestion): KeyFacts {
  if (question.goldAnswer === undefined) return { numbers: [], terms: [] }
  return unstatedFacts(keyFacts(question.goldAnswer), [factEvidence(question.question)])
}

/**
 * A gold answer stating a number that appears in none of its answer documents (error), numbers read as
 * coverage reads them ("90-day" and "90 days" state 90, "USD 5,000" and "5000" state 5000). Such a gold
 * answer is either wrong, or right for a reason the answer documents do not hold (another document, or the
 * author's own knowledge), so coverage would score systems against facts the corpus cannot give. Numbers
 * the question itself states are exempt. none questions are not checked (they have no answer documents).
 * One finding per question, listing every unsupported number, and naming other corpus documents that do
 * state them.
 */
export function unsupportedFacts(
  questions: readonly GoldenQuestion[],
  docs: readonly CorpusDocument[],
  evidence = corpusEvidence(docs),
): Finding[] {
  const findings: Finding[] = []
  for (const question of questions) {
    if (question.type === 'none' || question.goldAnswer === undefined) continue
    const answerEvidence = question.answerDocIds.flatMap((id) => evidence.get(id) ?? [])
    // Numbers only: a document can be checked for a number, while a paraphrase changes the terms.
    const missing = unstatedFacts(goldFacts(question), answerEvidence).numbers
    if (missing.length === 0) continue
    const elsewhere = new Set<string>()
    for (const n of missing) {
      for (const [docId, e] of evidence)
        if (!question.answerDocIds.includes(docId) && e.numbers.has(n) && elsewhere.size < SUGGESTED_DOCS) elsewhere.add(docId)
    }
    const docs = question.answerDocIds.join(', ')
    const them = missing.length === 1 ? 'it' : 'them'
    const state = question.answerDocIds.length === 1 ? 'states' : 'state'
    const fix =
      elsewhere.size > 0
        ? `correct ${them} to what ${docs} ${state}, or, if another document is the source, ` +
          `add it to answerDocIds (stated in ${[...elsewhere].join(', ')})`
        : `correct ${them} to what ${docs} ${state}, or drop ${them}: no corpus document states ${them}`
    findings.push(
      finding(
        'unsupported-fact',
        question.id,
        `goldAnswer states the number${missing.length === 1 ? '' : 's'} ${missing.join(', ')}, found in none of its answer docs (${docs})`,
        fix,
      ),
    )
  }
  return findings
}
