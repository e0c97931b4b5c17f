import { existsSync, readFileSync } from 'node:fs'
import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { InputError } from '../../contract/input-error.ts'
import type { CorpusDocument } from '../../load/corpus.ts'
import { loadGoldenSet } from '../../load/golden-set.ts'
import { writeFileAtomic } from '../../files/write-file-atomic.ts'

export interface GoldenFile {
  /** The file's text when read; null when it does not exist yet. */
  text: string | null
  questions: GoldenQuestion[]
}

/**
 * The golden set as `golden add`, `review` and `verify` read it: loaded and validated, or empty when new or without
 * questions. A set that does not load is refused, naming the command.
 */
export function readGoldenFile(file: string, docs: readonly CorpusDocument[], command: string): GoldenFile {
  if (!existsSync(file)) return { text: null, questions: [] }
  const text = readFileSync(file, 'utf8')
  try {
    const data = JSON.parse(text) as { questions?: unknown }
    if (Array.isArray(data.questions) && data.questions.length === 0) return { text, questions: [] }
  } catch {
    // The loader reports the syntax error with its line below.
  }
  try {
    return { text, questions: loadGoldenSet(file, docs) }
  } catch (error) {
    if (error instanceof InputError)
      throw new InputError(
        `${error.message}\nthe golden set must load before ${command} reads it (rag-eval golden check --golden ${file})`,
      )
    throw error
  }
}

/** The questions of a golden-set text by id (JSON as written, compared as text); null when it is not a golden set. */
function questionsById(text: string): Map<string, string> | null {
  try {
    const data = JSON.parse(text) as { questions?: unknown }
    if (!Array.isArray(data.questions)) return null
    return new Map(
      data.questions.map((q: unknown, i) => {
        const id = (q as { id?: unknown } | null)?.id
        return [typeof id === 'string' ? id : `#${i + 1}`, JSON.stringify(q)]
      }),
    )
  } catch {
    return null
  }
}

/** What changed between two versions of a golden set, in words: the questions added, removed and edited. */
export function goldenSetChanges(before: string | null, now: string | null): string {
  if (before === null) return 'it was created'
  if (now === null) return 'it was deleted'
  const [was, is] = [questionsById(before), questionsById(now)]
  if (was === null || is === null)
    return is === null ? 'it is no longer a golden set (invalid JSON or no questions array)' : 'it was rewritten'
  const ids = (list: string[]) =>
    list.length > 5 ? `${list.slice(0, 5).join(', ')} and ${list.length - 5} more` : list.join(', ')
  const added = [...is.keys()].filter((id) => !was.has(id))
  const removed = [...was.keys()].filter((id) => !is.has(id))
  const edited = [...is.keys()].filter((id) => was.has(id) && was.get(id) !== is.get(id))
  const parts = [
    ...(added.length > 0 ? [`${ids(added)} added`] : []),
    ...(removed.length > 0 ? [`${ids(removed)} removed`] : []),
    ...(edited.length > 0 ? [`${ids(edited)} edited`] : []),
  ]
  return parts.length > 0 ? parts.join('; ') : 'its questions are the same, its text is not'
}

/**
 * Replaces the golden set with `text` atomically, only if it still holds `before` (null: absent): a file edited
 * meanwhile is refused, naming what changed, and left as it is.
 */
export function writeGoldenFile(file: string, before: string | null, text: string, command: string): void {
  const now = existsSync(file) ? readFileSync(file, 'utf8') : null
  if (now !== before)
    throw new InputError(
      `${file} changed since ${command} read it (${goldenSetChanges(before, now)}); nothing written: run ${command} again`,
    )
  writeFileAtomic(file, text)
}
