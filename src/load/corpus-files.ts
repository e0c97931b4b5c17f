import { readdirSync, statSync, type Dirent, type Stats } from 'node:fs'
import { join } from 'node:path'
import picomatch from 'picomatch'
import type { CorpusSpec } from './corpus-spec.ts'
import { InputError } from '../contract/input-error.ts'

/** A file the corpus spec selected. */
export interface CorpusFile {
  /** Path relative to the corpus folder, POSIX separators: `guides/sso.md`. */
  path: string
  /** Path to read and to name in messages: the corpus folder joined with `path`. */
  file: string
}

/** A file or folder under the corpus folder that is not a document, and why. */
export interface ExcludedFile {
  /** Path relative to the corpus folder, POSIX separators; a folder ends with `/`. */
  file: string
  reason: string
}

interface Glob {
  pattern: string
  matches: (path: string) => boolean
  /** For `P/**`: whether a folder path matches P, so that everything in it matches the glob. */
  coversFolder: (path: string) => boolean
}

function glob(pattern: string): Glob {
  const matches = picomatch(pattern, { dot: true })
  const prefix = pattern.endsWith('/**') ? picomatch(pattern.slice(0, -3), { dot: true }) : undefined
  return { pattern, matches, coversFolder: (path) => matches(path) || (prefix?.(path) ?? false) }
}

/**
 * The files a corpus spec selects and every other file with the reason it was left out, sorted by relative path in
 * code-unit order (the same on every machine). Excludes are checked first, the first match named; an excluded folder
 * is listed once with a trailing `/`, not walked; links to folders are listed, not followed (they can loop).
 */
export function selectCorpusFiles(spec: CorpusSpec): { files: CorpusFile[]; excluded: ExcludedFile[] } {
  const { dir } = spec
  let isFolder: boolean
  try {
    isFolder = statSync(dir).isDirectory()
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new InputError(`${dir}: corpus folder not found (expected a folder of Markdown documents)`)
    throw new InputError(`${dir}: cannot read the corpus folder (${(error as Error).message})`)
  }
  if (!isFolder) throw new InputError(`${dir}: expected a corpus folder, found a file`)

  const include = spec.include.map(glob)
  const exclude = spec.exclude.map(glob)
  const files: CorpusFile[] = []
  const excluded: ExcludedFile[] = []
  const consider = (path: string) => {
    const excludedBy = exclude.find((g) => g.matches(path))
    if (excludedBy) excluded.push({ file: path, reason: `excluded by ${excludedBy.pattern}` })
    else if (include.some((g) => g.matches(path))) files.push({ path, file: join(dir, path) })
    else excluded.push({ file: path, reason: `not matched by include ${spec.include.join(', ')}` })
  }
  const walk = (folder: string) => {
    let entries: Dirent[]
    try {
      entries = readdirSync(join(dir, folder), { withFileTypes: true })
    } catch (error) {
      throw new InputError(`${join(dir, folder)}: cannot read the folder (${(error as Error).message})`)
    }
    for (const entry of entries) {
      const path = folder === '' ? entry.name : `${folder}/${entry.name}`
      if (entry.isDirectory()) {
        const excludedBy = exclude.find((g) => g.coversFolder(path))
        if (excludedBy) excluded.push({ file: `${path}/`, reason: `excluded by ${excludedBy.pattern}` })
        else walk(path)
      } else if (entry.isFile()) consider(path)
      else if (entry.isSymbolicLink()) {
        let target: Stats | undefined
        try {
          target = statSync(join(dir, path))
        } catch {
          target = undefined
        }
        if (target === undefined) excluded.push({ file: path, reason: 'broken symbolic link' })
        else if (target.isFile()) consider(path)
        else excluded.push({ file: path, reason: 'symbolic link to a folder: not followed' })
      } else excluded.push({ file: path, reason: 'not a regular file' })
    }
  }
  walk('')
  const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)
  files.sort((a, b) => byPath(a.path, b.path))
  excluded.sort((a, b) => byPath(a.file, b.file))
  return { files, excluded }
}
