import type { Provenance } from '../contract/provenance-schema.ts'

interface WithProvenance {
  id: string
  provenance?: Provenance | undefined
}

const drafted = (q: WithProvenance) => q.provenance?.origin === 'drafted'
const unreviewed = (q: WithProvenance) => q.provenance?.unreviewed === true

/** The warning about questions a script accepted (`golden review --accept-kept`) that no person has read; null if none. */
export function unreviewedWarning(questions: readonly WithProvenance[]): string | null {
  const ids = questions.filter(unreviewed).map((q) => q.id)
  if (ids.length === 0) return null
  return (
    `the golden set holds ${ids.length} question${ids.length === 1 ? '' : 's'} accepted without review (golden review ` +
    `--accept-kept: drafted by a model, read by nobody): ${ids.join(', ')}; their gold answers and documents are ` +
    'unchecked by a person: read them with rag-eval golden review on a terminal (it shows them after the drafts) ' +
    'before trusting the numbers'
  )
}

/** One line on where the questions came from, when some were drafted, imported or harvested; none for a hand-written set. */
export function provenanceLine(questions: readonly WithProvenance[]): string[] {
  const draftedOnes = questions.filter(drafted)
  const imported = questions.filter((q) => q.provenance?.origin === 'imported').length
  const harvested = questions.filter((q) => q.provenance?.origin === 'harvested').length
  if (draftedOnes.length === 0 && imported === 0 && harvested === 0) return []
  const draftedUnreviewed = draftedOnes.filter(unreviewed).length
  const parts = [
    draftedOnes.length > 0
      ? `${draftedOnes.length} drafted by a model (${draftedOnes.length - draftedUnreviewed} reviewed by a person, ` +
        `${draftedUnreviewed} unreviewed)`
      : '',
    imported > 0 ? `${imported} imported` : '',
    harvested > 0 ? `${harvested} harvested from production` : '',
    `${questions.length - draftedOnes.length - imported - harvested} hand-written`,
  ].filter(Boolean)
  return [`questions: ${parts.join(', ')}`]
}

/** How a question's provenance reads beside it in a report: '' for a hand-written one. */
export function describeProvenance(provenance: Provenance | undefined): string {
  if (provenance === undefined || provenance.origin === 'hand-written') return ''
  const who = provenance.model === undefined ? '' : ` by ${provenance.model}`
  const prompt = provenance.promptHash === undefined ? '' : ` (prompt ${provenance.promptHash})`
  const review = provenance.unreviewed
    ? 'unreviewed (accepted by golden review --accept-kept)'
    : provenance.reviewedBy !== undefined
      ? `reviewed by ${provenance.reviewedBy}${provenance.reviewedAt === undefined ? '' : ` on ${provenance.reviewedAt}`}`
      : 'no review recorded'
  const from = provenance.source === undefined ? '' : ` from ${provenance.source}:${provenance.line ?? 1}`
  return `${provenance.origin}${provenance.origin === 'drafted' ? `${who}${prompt}` : from}, ${review}`
}
