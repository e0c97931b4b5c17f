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

/** The gold answer's key facts (text/key-facts.ts) the question does not give (a restated "75%" needs no document). */
export function goldFacts(question: GoldenQuestion): KeyFacts {
  if (question.goldAnswer === undefined) return { numbers: [], terms: [] }
  return unstatedFacts(keyFacts(question.goldAnswer), [factEvidence(question.question)])
}

/**
 * A gold answer stating a number, read as coverage reads it, that none of its answer documents states (error): coverage
 * would score against facts the documents cannot give. Numbers the question states are exempt; none questions too.
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
