import { existsSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'

/** Where the golden set's JSON Schema sits in a project that keeps its own copy (`rag-eval golden schema` writes it). */
export const PROJECT_SCHEMA_FILE = 'evals/golden-set.schema.json'

/** The schema inside the installed package (it ships evals/golden-set.schema.json). */
const INSTALLED_SCHEMA = join('node_modules', 'rag-vitest-eval', 'evals', 'golden-set.schema.json')

/**
 * The `$schema` for a golden-set file at `file`: the project's evals/golden-set.schema.json, else the installed
 * package's (through node_modules's stable link, not a versioned store path); null when neither exists.
 */
export function schemaReference(file: string, root = '.'): string | null {
  const folder = dirname(resolve(file))
  const own = resolve(root, PROJECT_SCHEMA_FILE)
  if (existsSync(own)) return relativeReference(folder, own)
  for (let dir = folder; ; dir = dirname(dir)) {
    const installed = join(dir, INSTALLED_SCHEMA)
    if (existsSync(installed)) return relativeReference(folder, installed)
    if (dirname(dir) === dir) return null
  }
}

function relativeReference(from: string, to: string): string {
  const path = relative(from, to).split('\\').join('/')
  return path.startsWith('.') ? path : `./${path}`
}
