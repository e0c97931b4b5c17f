import { readFileSync } from 'node:fs'
import { basename } from 'node:path'
import { z } from 'zod'
import { selectCorpusFiles, type ExcludedFile } from './corpus-files.ts'
import { CorpusSpecSchema } from './corpus-spec.ts'
import { firstHeading } from './first-heading.ts'
import { InputError } from '../contract/input-error.ts'
import { decodeUtf8Text } from '../files/utf8-text.ts'
import { parseFrontMatter } from './front-matter.ts'
import { DocumentAccessSchema } from '../contract/access-schema.ts'

/** Message for a mistyped front-matter field. */
function expected(what: string) {
  return (issue: { input: unknown }) => `expected ${what}, got ${JSON.stringify(issue.input)}`
}

/** Whether a YYYY-MM-DD text names a day of the calendar (2026-02-30 and 2026-13-01 do not). */
function isCalendarDate(text: string): boolean {
  const [year, month, day] = text.split('-').map(Number) as [number, number, number]
  const date = new Date(Date.UTC(year, month - 1, day))
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

const DOCUMENT_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/

/**
 * Front-matter fields the suite reads, all optional: a document without `id` is named by its path,
 * one without `title` by its first `# ` heading or its file name. Other fields are kept as metadata.
 */
export const DocumentFrontMatterSchema = z.looseObject({
  id: z
    .string({ error: expected('a stable id such as doc-001') })
    .regex(DOCUMENT_ID, 'expected a stable id such as doc-001 (letters, digits, . _ -)')
    .optional(),
  title: z
    .string({ error: expected('the document title') })
    .min(1, 'expected a non-empty title')
    .optional(),
  updated: z
    .string({ error: expected('the date of the last update, YYYY-MM-DD') })
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date written YYYY-MM-DD')
    .refine(isCalendarDate, {
      error: (issue) => `${String(issue.input)} is not a day of the calendar; expected a date written YYYY-MM-DD`,
    })
    .optional(),
  supersedes: z.union([z.string(), z.array(z.string())], { error: expected('a document id or a list of them') }).optional(),
  // Who may read the document (docs/security.md); kept with the other fields in `metadata`.
  access: DocumentAccessSchema.optional(),
})

export type DocumentFrontMatter = z.infer<typeof DocumentFrontMatterSchema>

export interface CorpusDocument {
  /** The front matter's id, else the path relative to the corpus folder without its extension (`guides/sso`). */
  id: string
  /** The front matter's title, else the first `# ` heading, else the file name without its extension. */
  title: string
  /** YYYY-MM-DD, a real day; absent when the front matter has none. */
  updated?: string
  /** Ids of the documents this one replaces; each is a document of the corpus. */
  supersedes?: string | string[]
  /** Front-matter fields other than id, title, updated, supersedes, verbatim; absent when there are none. */
  metadata?: Record<string, unknown>
  /** Path of the source file, for error messages. */
  file: string
  /** The text after the front matter (all of it when there is none). */
  body: string
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/

function frontMatterOf(text: string, file: string): { data: DocumentFrontMatter; body: string } {
  if (!/^---\r?\n/.test(text)) return { data: {}, body: text }
  const match = FRONT_MATTER.exec(text)
  if (!match) throw new InputError(`${file}: front matter opened by '---' on line 1 is not closed by a '---' line`)
  let data: unknown
  try {
    data = parseFrontMatter(match[1]!)
  } catch (error) {
    throw new InputError(`${file}: front matter is not valid YAML (${(error as Error).message.split('\n')[0]})`)
  }
  if (data !== null && (typeof data !== 'object' || Array.isArray(data)))
    throw new InputError(`${file}: front matter is not a list of fields (expected lines such as "title: ...")`)
  const parsed = DocumentFrontMatterSchema.safeParse(data ?? {})
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    throw new InputError(`${file}: front matter field "${issue.path.join('.')}": ${issue.message}`)
  }
  return { data: parsed.data, body: text.slice(match[0].length) }
}

/**
 * Parses one document: optional YAML front matter, then the text (a leading byte-order mark dropped). `file` names
 * it in errors; `path` (relative to the corpus folder, POSIX separators) names a document without a front-matter id.
 */
export function parseCorpusDocument(text: string, file: string, path: string = basename(file)): CorpusDocument {
  const content = text.replace(/^\uFEFF/, '')
  const { data, body } = frontMatterOf(content, file)
  const { id, title, updated, supersedes, ...metadata } = data
  const withoutExtension = path.replace(/\.[^./]*$/, '')
  const docId = id ?? withoutExtension
  if (body.trim().length === 0)
    throw new InputError(
      `${file}: document ${docId} is empty (no text${body.length < content.length ? ' after the front matter' : ''})`,
    )
  return {
    id: docId,
    title: title ?? firstHeading(body) ?? basename(withoutExtension),
    ...(updated !== undefined ? { updated } : {}),
    ...(supersedes !== undefined ? { supersedes } : {}),
    ...(Object.keys(metadata).length > 0 ? { metadata } : {}),
    file,
    body,
  }
}

/** The documents of a corpus, and every file under its folder that is not one, with the reason. */
export interface LoadedCorpus {
  documents: CorpusDocument[]
  excluded: ExcludedFile[]
}

/**
 * Loads the documents a corpus spec selects, sorted by relative path so every report is stable. Rejects a missing
 * folder, a spec selecting nothing, non-UTF-8 files, invalid front matter, empty documents, duplicate ids and
 * `supersedes` ids that are not documents of the corpus.
 */
export function loadCorpusFrom(spec: { dir: string; include?: readonly string[]; exclude?: readonly string[] }): LoadedCorpus {
  const resolved = CorpusSpecSchema.safeParse(spec)
  if (!resolved.success) {
    const issue = resolved.error.issues[0]!
    throw new InputError(`corpus ${JSON.stringify(spec.dir)}: field "${issue.path.join('.')}": ${issue.message}`)
  }
  const { dir, include } = resolved.data
  const { files, excluded } = selectCorpusFiles(resolved.data)
  if (files.length === 0) {
    const examples = excluded.slice(0, 3).map((e) => `${e.file}: ${e.reason}`)
    throw new InputError(
      `${dir}: no corpus documents: no file matches include ${include.join(', ')}` +
        (excluded.length === 0
          ? ' (the folder is empty)'
          : ` (${excluded.length} left out: ${examples.join('; ')}${excluded.length > 3 ? '; ...' : ''})`),
    )
  }
  const texts = decodeEveryFile(files)
  const seen = new Map<string, string>()
  const documents = files.map(({ path, file }, i) => {
    const doc = parseCorpusDocument(texts[i]!, file, path)
    const earlier = seen.get(doc.id)
    if (earlier) throw new InputError(`${file}: duplicate document id ${doc.id} (already used by ${earlier})`)
    seen.set(doc.id, file)
    return doc
  })
  const unknown = documents.flatMap((doc) =>
    [doc.supersedes ?? []]
      .flat()
      .flatMap((id) =>
        seen.has(id) ? [] : [`${doc.file}: front matter field "supersedes": ${id} is not a document of the corpus`],
      ),
  )
  if (unknown.length > 0) throw new InputError(unknown.join('\n'))
  return { documents, excluded }
}

/** The text of every file, or one error naming every file that is not UTF-8 (a converted corpus has many: fix them in one go). */
function decodeEveryFile(files: readonly { file: string }[]): string[] {
  const problems: string[] = []
  const texts = files.map(({ file }) => {
    let bytes: Uint8Array
    try {
      bytes = readFileSync(file)
    } catch (error) {
      throw new InputError(`${file}: cannot read the document (${(error as Error).message})`)
    }
    try {
      return decodeUtf8Text(bytes, file)
    } catch (error) {
      if (!(error instanceof InputError)) throw error
      problems.push(error.message)
      return ''
    }
  })
  if (problems.length === 1) throw new InputError(problems[0])
  if (problems.length > 1) throw new InputError([`${problems.length} corpus files are not valid UTF-8:`, ...problems].join('\n'))
  return texts
}

/** The documents of a corpus folder with the default include/exclude globs (see loadCorpusFrom). */
export function loadCorpus(dir: string): CorpusDocument[] {
  return loadCorpusFrom({ dir }).documents
}
