import type { CorpusDocument } from '../../load/corpus.ts'
import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { documentText, extractFacts, states, textEvidence, type Fact, type TextEvidence } from './answer-facts.ts'
import { finding, type Finding } from './finding.ts'

/** How many other corpus documents that state a missing fact are named in the fix. */
const SUGGESTED_DOCS = 3

/** The evidence of every document, computed once per lint run. */
export function corpusEvidence(docs: readonly CorpusDocument[]): Map<string, TextEvidence> {
  return new Map(docs.map((doc) => [doc.id, textEvidence(documentText(doc))]))
}

/**
 * The checkable facts of a question's gold answer that the question itself does not already give
 * (a gold answer may restate the user's "75%" or "USD 8,000"; those need no document).
 */
export function goldFacts(question: GoldenQuestion): Fact[] {
  if (question.goldAnswer === undefined) return []
  const given = textEvidence(question.question)
  return extractFacts(question.goldAnswer).filter((fact) => !states(given, fact))
}

export function describeFact(fact: Fact): string {
  return `"${fact.text}" (${fact.kind})`
}

/**
 * A gold answer stating a fact that appears in none of its answer documents (error): a number, money
 * amount, percentage, duration, date, time, identifier or proper name (see answer-facts.ts for what is
 * extracted and how "90 days" / "90-day" and "USD 5,000" / "5000" are normalised to compare equal).
 * Such a gold answer is either wrong, or right for a reason the answer documents do not hold (another
 * document, or the author's own knowledge), so the metrics would score systems against facts the
 * corpus cannot give. Facts the question itself states are exempt. none questions are not checked
 * (they have no answer documents). One finding per question, listing every unsupported fact, and
 * naming other corpus documents that do state them.
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
    const missing = goldFacts(question).filter((fact) => !answerEvidence.some((e) => states(e, fact)))
    if (missing.length === 0) continue
    const elsewhere = new Set<string>()
    for (const fact of missing) {
      for (const [docId, e] of evidence)
        if (!question.answerDocIds.includes(docId) && states(e, fact) && elsewhere.size < SUGGESTED_DOCS) elsewhere.add(docId)
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
        `goldAnswer states ${missing.map(describeFact).join(', ')}, found in none of its answer docs (${docs})`,
        fix,
      ),
    )
  }
  return findings
}
