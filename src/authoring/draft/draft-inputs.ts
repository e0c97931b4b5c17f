import { readFileSync } from 'node:fs'
import { relative, sep } from 'node:path'
import picomatch from 'picomatch'
import { z } from 'zod'
import { UserContextSchema, type UserContext } from '../../contract/golden-set-schema.ts'
import { InputError } from '../../contract/input-error.ts'
import type { CorpusDocument } from '../../load/corpus.ts'

/** --user-contexts: a JSON list of personas ({"role": "support", "tenant": "acme"}), each a userContext. */
export function readPersonas(path: string): UserContext[] {
  let data: unknown
  try {
    data = JSON.parse(readFileSync(path, 'utf8'))
  } catch (error) {
    throw new InputError(`--user-contexts ${path}: not JSON (${(error as Error).message})`)
  }
  const parsed = z.array(UserContextSchema).min(1, 'expected at least one persona').safeParse(data)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const where = issue.path.length > 0 ? `persona ${Number(issue.path[0]) + 1}: ` : ''
    throw new InputError(
      `--user-contexts ${path}: ${where}${issue.message}; expected a JSON list of objects such as [{"role": "support", "tenant": "acme"}]`,
    )
  }
  return parsed.data
}

/** --docs: the documents whose path under the corpus folder (or id) the glob matches. */
export function selectDocs(docs: readonly CorpusDocument[], corpusDir: string, glob: string | undefined): CorpusDocument[] {
  if (glob === undefined) return [...docs]
  const matches = picomatch(glob, { dot: true })
  const selected = docs.filter((d) => matches(relative(corpusDir, d.file).split(sep).join('/')) || matches(d.id))
  if (selected.length === 0)
    throw new InputError(`--docs ${glob}: matches none of the corpus's ${docs.length} documents (paths relative to ${corpusDir})`)
  return selected
}
