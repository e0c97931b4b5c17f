import { z } from 'zod'

const names = (what: string) =>
  z.array(z.string().min(1), { error: `expected a list of ${what}, such as [acme]` }).min(1, `expected at least one ${what}`)

/**
 * Who may read a document (front matter `access:`, a rule of the JSON rules file, or what a system owning its
 * documents declares): askers whose userContext.tenant is one of `tenants` and whose userContext.role (or one of
 * userContext.roles) is one of `roles`; an absent list does not restrict.
 */
export const DocumentAccessSchema = z.strictObject(
  { tenants: names('tenant').optional(), roles: names('role').optional() },
  { error: 'expected {"tenants"?: [...], "roles"?: [...]}' },
)
export type DocumentAccess = z.output<typeof DocumentAccessSchema>

/** The JSON file of glob rules the config's `access` may name: the first rule whose glob matches a document's path (else its id) decides. */
export const AccessRulesFileSchema = z.strictObject({
  $schema: z.string().optional(),
  rules: z.array(
    DocumentAccessSchema.extend({
      match: z.string().min(1, 'expected a glob such as "tenants/acme/**"').describe('A picomatch glob over the corpus path'),
    }),
  ),
})

/** A document as an access rule sees it: its id, its path under the corpus folder (null: the system owns it), its front matter. */
export interface AccessDocument {
  id: string
  path: string | null
  frontMatter: Readonly<Record<string, unknown>>
}

/** The config's `access`: whether the asker (a golden question's userContext) may read the document. */
export type AccessRule = (userContext: Readonly<Record<string, unknown>>, doc: AccessDocument) => boolean

/** Whether the asker may read a document; `declared`: the access a system owning its documents returned with them. */
export type MayRead = (
  userContext: Readonly<Record<string, unknown>>,
  docId: string,
  declared?: Readonly<Record<string, DocumentAccess>>,
) => boolean

/** Where a question saw a document its asker may not read. */
export const LEAK_PLACES = ['stage', 'ranked', 'context', 'citation', 'answer'] as const

/** A document the access rule forbids the asker, and where it appeared (`stage`: the stage's numbered name beside it). */
export const LeakSchema = z.object({ docId: z.string(), where: z.enum(LEAK_PLACES), stage: z.string().optional() })
export type Leak = z.output<typeof LeakSchema>

/** Whether an access grants the asker (pure). */
export function grants(access: DocumentAccess, userContext: Readonly<Record<string, unknown>>): boolean {
  const { tenant, role, roles } = userContext
  const askerRoles: unknown[] = [role, ...(Array.isArray(roles) ? (roles as unknown[]) : [])]
  return (
    (access.tenants === undefined || access.tenants.includes(tenant as string)) &&
    (access.roles === undefined || askerRoles.some((r) => access.roles!.includes(r as string)))
  )
}

/** `h-007 asked by {"tenant":"acme"} saw tenants/globex/billing (stage retrieve, ranked, context, answer)`: for every message about a leak. */
export function describeLeaks(question: { id: string; userContext: unknown }, leaks: readonly Leak[]): string {
  const places = new Map<string, string[]>()
  for (const { docId, where, stage } of leaks) {
    const list = places.get(docId) ?? []
    places.set(docId, [...list, stage === undefined ? where : `stage ${stage}`])
  }
  const docs = [...places].map(([docId, where]) => `${docId} (${where.join(', ')})`)
  return `${question.id} asked by ${JSON.stringify(question.userContext)} saw ${docs.join('; ')}`
}
