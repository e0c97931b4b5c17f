import type { CorpusDocument } from '../../load/corpus.ts'
import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { finding, type Finding } from './finding.ts'

/** The documents a document's front matter says it supersedes. */
export function supersededIds(doc: Pick<CorpusDocument, 'supersedes'>): string[] {
  return doc.supersedes === undefined ? [] : [doc.supersedes].flat()
}

/**
 * A contradiction question without governingDocId (error, though the schema allows it): its context hit would accept
 * the stale document and contradiction handling goes unscored. The fix names the likely governing document.
 */
export function contradictionWithoutGoverning(questions: readonly GoldenQuestion[], docs: readonly CorpusDocument[]): Finding[] {
  const byId = new Map(docs.map((doc) => [doc.id, doc]))
  const findings: Finding[] = []
  for (const question of questions) {
    if (question.type !== 'contradiction' || question.governingDocId !== undefined) continue
    const answerDocs = question.answerDocIds.flatMap((id) => byId.get(id) ?? [])
    const superseding = answerDocs.find((doc) => supersededIds(doc).some((id) => question.answerDocIds.includes(id)))
    // Documents without an `updated` date cannot be the most recent one.
    const newest = answerDocs.filter((doc) => doc.updated !== undefined).sort((a, b) => b.updated!.localeCompare(a.updated!))[0]
    const suggestion =
      superseding !== undefined
        ? `set "governingDocId": "${superseding.id}" (it supersedes ${supersededIds(superseding)
            .filter((id) => question.answerDocIds.includes(id))
            .join(', ')})`
        : newest !== undefined
          ? `set "governingDocId" to the answer doc whose answer holds, ` +
            `likely "${newest.id}" (the most recently updated, ${newest.updated})`
          : 'set "governingDocId" to the answer doc whose answer holds'
    findings.push(
      finding(
        'contradiction-without-governing',
        question.id,
        'contradiction question without governingDocId: its hit accepts any answer doc, even the stale one, ' +
          'and contradiction handling is not scored',
        suggestion,
      ),
    )
  }
  return findings
}
