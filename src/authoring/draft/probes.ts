import type { DocumentAccess, MayRead } from '../../contract/access-schema.ts'
import type { GoldenQuestion, UserContext } from '../../contract/golden-set-schema.ts'
import type { CorpusDocument } from '../../load/corpus.ts'

/** What planning cross-tenant probes needs: how many, who may ask, and the project's access rule. */
export interface ProbeOptions {
  count: number
  /** The askers to try: the personas, else one per tenant the documents' front matter names. */
  askers: readonly UserContext[]
  mayRead: MayRead
}

/** One asker per tenant named in the documents' front-matter `access:`, in first-seen order. */
export function tenantAskers(docs: readonly CorpusDocument[]): UserContext[] {
  const tenants = docs.flatMap((d) => (d.metadata?.access as DocumentAccess | undefined)?.tenants ?? [])
  return [...new Set(tenants)].map((tenant) => ({ tenant }))
}

/** A single draft turned into the probe: the same question, asked by one who may not read its document (none). */
export function asProbe(question: GoldenQuestion, asker: UserContext): GoldenQuestion {
  return {
    id: question.id,
    type: 'none',
    question: question.question,
    answerDocIds: [],
    userContext: asker,
    probeDocIds: question.answerDocIds,
    ...(question.provenance ? { provenance: question.provenance } : {}),
    notes:
      `Cross-tenant probe: answered only by ${question.answerDocIds.join(', ')}, which its asker may not read; the right outcome is a refusal. ${question.notes ?? ''}`.trimEnd(),
  }
}
