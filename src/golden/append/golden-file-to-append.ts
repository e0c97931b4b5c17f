import { existsSync, readFileSync } from 'node:fs'
import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { InputError } from '../../contract/input-error.ts'
import type { CorpusDocument } from '../../load/corpus.ts'
import { loadGoldenSet } from '../../load/golden-set.ts'

export interface GoldenFile {
  /** The file's text when read; null when it does not exist yet. */
  text: string | null
  questions: GoldenQuestion[]
}

/**
 * The golden set a command appends to (`golden add`, `golden review`): loaded and validated, or empty when the file
 * is new or has no question yet. A set that does not load is refused, naming the command that would have appended.
 */
export function readGoldenFileToAppend(file: string, docs: readonly CorpusDocument[], command: string): GoldenFile {
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
        `${error.message}\nthe golden set must load before ${command} appends to it (rag-eval golden check --golden ${file})`,
      )
    throw error
  }
}
