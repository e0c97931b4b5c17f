import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { parse as parseYaml } from 'yaml'
import { z } from 'zod'
import { InputError } from './input-error.ts'

/** Message for a missing or mistyped front-matter field. */
function required(what: string) {
  return (issue: { input: unknown }) => (issue.input === undefined ? `missing; expected ${what}` : `expected ${what}, got ${JSON.stringify(issue.input)}`)
}

/** Front matter every corpus document carries. */
export const DocumentFrontMatterSchema = z
  .object({
    id: z.string({ error: required('a stable id such as doc-001') }).regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'expected a stable id such as doc-001 (letters, digits, . _ -)'),
    title: z.string({ error: required('the document title') }).min(1, 'expected a non-empty title'),
    updated: z.string({ error: required('the date of the last update, YYYY-MM-DD') }).regex(/^\d{4}-\d{2}-\d{2}$/, 'expected a date written YYYY-MM-DD'),
    supersedes: z.union([z.string(), z.array(z.string())]).optional(),
  })
  .strict()

export type DocumentFrontMatter = z.infer<typeof DocumentFrontMatterSchema>

export interface CorpusDocument extends DocumentFrontMatter {
  /** Path of the source file, for error messages. */
  file: string
  /** Markdown body after the front matter. */
  body: string
}

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---\r?\n?/

/** Parses one Markdown document with YAML front matter. `file` is used in error messages only. */
export function parseCorpusDocument(text: string, file: string): CorpusDocument {
  const match = FRONT_MATTER.exec(text)
  if (!match) throw new InputError(`${file}: missing front matter (expected a leading '---' block with id, title, updated)`)
  let data: unknown
  try {
    data = parseYaml(match[1]!)
  } catch (error) {
    throw new InputError(`${file}: front matter is not valid YAML (${(error as Error).message.split('\n')[0]})`)
  }
  const parsed = DocumentFrontMatterSchema.safeParse(data ?? {})
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const field = issue.path.join('.') || (issue.code === 'unrecognized_keys' ? issue.keys.join(', ') : 'front matter')
    throw new InputError(`${file}: front matter field "${field}": ${issue.message}`)
  }
  const body = text.slice(match[0].length)
  if (body.trim().length === 0) throw new InputError(`${file}: document ${parsed.data.id} is empty (no text after the front matter)`)
  return { ...parsed.data, file, body }
}

/**
 * Loads every `*.md` file of a corpus folder, sorted by file name so the order (and so every
 * report) is stable. Rejects a missing or empty folder and duplicate ids, naming both files.
 */
export function loadCorpus(dir: string): CorpusDocument[] {
  let names: string[]
  try {
    if (!statSync(dir).isDirectory()) throw new Error('not a directory')
    names = readdirSync(dir)
  } catch {
    throw new InputError(`${dir}: corpus folder not found (expected a folder of Markdown documents)`)
  }
  const files = names.filter((name) => name.endsWith('.md')).sort()
  if (files.length === 0) throw new InputError(`${dir}: corpus folder holds no .md documents`)
  const seen = new Map<string, string>()
  return files.map((name) => {
    const file = join(dir, name)
    const doc = parseCorpusDocument(readFileSync(file, 'utf8'), file)
    const earlier = seen.get(doc.id)
    if (earlier) throw new InputError(`${file}: duplicate document id ${doc.id} (already used by ${earlier})`)
    seen.set(doc.id, file)
    return doc
  })
}
