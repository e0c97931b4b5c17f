import { relative, sep } from 'node:path'
import picomatch from 'picomatch'
import {
  AccessRulesFileSchema,
  grants,
  type AccessDocument,
  type AccessRule,
  type DocumentAccess,
  type MayRead,
} from '../contract/access-schema.ts'
import { readJsonFile } from '../files/read-json-file.ts'
import type { CorpusDocument } from './corpus.ts'

/**
 * The run's access decision (docs/security.md), in this order: the config's `access` function decides alone when
 * there is one (it sees the document's front matter); else the document's front-matter `access:` (for a document
 * of the system's own, the access it declared); else the first rule of the JSON rules file (the config's `access`
 * as a path) whose glob matches the document's corpus path, or its id outside the corpus; else every asker may read it.
 */
export function accessDecision(
  access: AccessRule | string | null,
  corpus: { dir: string; documents: readonly CorpusDocument[] } | null,
): MayRead {
  const rules =
    typeof access === 'string'
      ? readJsonFile(
          access,
          AccessRulesFileSchema,
          'expected {"rules": [{"match": "<glob>", "tenants"?: [...], "roles"?: [...]}]} (access in rag-eval.config.ts)',
        ).rules.map((rule) => ({ ...rule, matches: picomatch(rule.match, { dot: true }) }))
      : []
  const documents = new Map<string, AccessDocument>(
    (corpus?.documents ?? []).map((doc) => [
      doc.id,
      { id: doc.id, path: relative(corpus!.dir, doc.file).split(sep).join('/'), frontMatter: doc.metadata ?? {} },
    ]),
  )
  return (userContext, docId, declared) => {
    const declaredAccess = declared?.[docId]
    const doc = documents.get(docId) ?? { id: docId, path: null, frontMatter: declaredAccess ? { access: declaredAccess } : {} }
    if (typeof access === 'function') return access(userContext, doc)
    const own = doc.frontMatter.access as DocumentAccess | undefined
    if (own !== undefined) return grants(own, userContext)
    const rule = rules.find((r) => r.matches(doc.path ?? doc.id))
    return rule === undefined || grants(rule, userContext)
  }
}
