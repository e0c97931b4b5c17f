// docs/knobs.md is the one table of the knobs: every environment variable the package, its Vitest config and
// the repository's scripts read is a row of it, every config knob too, and it names nothing that is not read.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { EvalKnobsSchema } from '../contract/eval-config-schema.ts'
import { RetrieverOptionsSchema } from '../contract/retriever-options.ts'
import { KNOB_VARIABLES } from './eval-config.ts'
import { ProjectFieldsSchema } from './project-config.ts'

const doc = readFileSync('docs/knobs.md', 'utf8')
const rows = doc
  .split('\n')
  .filter((line) => line.startsWith('| ') && !line.startsWith('| config field') && !line.startsWith('| ---'))
  .map((line) => line.split('|').slice(1, -1))
/** The backticked names of a column. */
const names = (column: number) => rows.flatMap((cells) => [...cells[column]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!))
const documentedVariables = names(1)
const documentedFields = names(0)

/** The production sources: src/ without tests and test helpers, the Vitest config, the repository's scripts. */
function sources(): string[] {
  const src = readdirSync('src', { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.test.ts') && !path.split('/').includes('testing'))
    .map((path) => join('src', path))
  const scripts = readdirSync('scripts', { recursive: true, encoding: 'utf8' })
    .filter((path) => /\.(ts|mjs|js)$/.test(path) && !path.endsWith('.test.ts'))
    .map((path) => join('scripts', path))
  const examples = readdirSync('examples')
    .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
    .map((name) => join('examples', name))
  return [...src, ...scripts, ...examples, 'vitest.config.ts']
}

/** Variables a source names: EVAL_* and RAG_EVAL_* anywhere (the override tables, messages), and any `env.NAME` it reads. */
function variablesIn(text: string): string[] {
  const knobs = [...text.matchAll(/\b(?:RAG_)?EVAL_[A-Z0-9_]*[A-Z0-9]\b/g)].map((m) => m[0])
  const reads = [...text.matchAll(/(?<!delete )\benv\??\.([A-Z][A-Z0-9_]+)\b|\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]/g)].map(
    (m) => m[1] ?? m[2]!,
  )
  return [...knobs, ...reads]
}

describe('docs/knobs.md', () => {
  it('has a row for every environment variable read, and none for a variable nothing reads', () => {
    const read = new Set(sources().flatMap((path) => variablesIn(readFileSync(path, 'utf8'))))
    expect(read).toContain('EVAL_MODE')
    expect(read).toContain('RAG_EVAL_THREADS')
    expect([...read].filter((name) => !documentedVariables.includes(name)).sort()).toEqual([])
    expect(documentedVariables.filter((name) => !read.has(name)).sort()).toEqual([])
  })

  it('has a row for every config knob, and names only config fields', () => {
    const knobs = Object.keys(EvalKnobsSchema.shape).flatMap((key) =>
      key === 'retrieval' ? Object.keys(RetrieverOptionsSchema.shape).map((option) => `retrieval.${option}`) : [key],
    )
    expect(knobs.filter((knob) => !documentedFields.includes(knob)).sort()).toEqual([])
    const fields = [...knobs, ...Object.keys(ProjectFieldsSchema.shape)]
    expect(documentedFields.filter((field) => !fields.includes(field)).sort()).toEqual([])
  })

  it('puts each variable beside the config field it overrides', () => {
    const misplaced = rows.flatMap((cells) => {
      const [fields, variables] = [0, 1].map((column) => [...cells[column]!.matchAll(/`([^`]+)`/g)].map((m) => m[1]!))
      return variables!.filter((name) => name in KNOB_VARIABLES && !fields!.includes(KNOB_VARIABLES[name]!))
    })
    expect(Object.keys(KNOB_VARIABLES).length).toBeGreaterThan(30)
    expect(misplaced).toEqual([])
  })

  it("keeps the design's knobs on the environment", () => {
    const design = ['EVAL_MODE', 'EVAL_CONTEXT_BUDGET', 'EVAL_CHUNK_TOKENS', 'EVAL_CHUNK_OVERLAP', 'EVAL_TOP_K', 'EVAL_TOLERANCE']
    const more = ['EVAL_GENERATOR_MODEL', 'EVAL_JUDGE_MODEL', 'EVAL_CONCURRENCY', 'MOCK', 'GATE', 'RAG_EVAL_THREADS']
    expect([...design, ...more].filter((name) => !documentedVariables.includes(name))).toEqual([])
  })
})
