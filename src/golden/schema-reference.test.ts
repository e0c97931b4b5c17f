import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { goldenSetText } from './golden-set-text.ts'
import { schemaReference } from './schema-reference.ts'

const temp = useTempDirs()

function project(files: string[]): string {
  const dir = temp.make('schema-ref-')
  for (const file of files) {
    mkdirSync(dirname(join(dir, file)), { recursive: true })
    writeFileSync(join(dir, file), '{}\n')
  }
  return dir
}

const INSTALLED = 'node_modules/rag-vitest-eval/evals/golden-set.schema.json'

describe('schemaReference: the $schema of a golden set written in a project points at a file that exists', () => {
  it("a user's project without a schema of its own: the installed package's, through node_modules's stable path", () => {
    const dir = project([INSTALLED])
    expect(schemaReference(join(dir, 'evals/golden-set.json'), dir)).toBe(`../${INSTALLED}`)
    expect(schemaReference(join(dir, 'golden.json'), dir)).toBe(`./${INSTALLED}`)
    expect(schemaReference(join(dir, 'tests/rag/evals/golden.json'), dir)).toBe(`../../../${INSTALLED}`)
  })

  it("a workspace package: the package found walking up from the golden set's folder, as Node resolves it", () => {
    const dir = project([INSTALLED, 'packages/app/package.json'])
    expect(schemaReference(join(dir, 'packages/app/evals/golden-set.json'), join(dir, 'packages/app'))).toBe(
      `../../../${INSTALLED}`,
    )
    // The nearer install wins, as it does for Node.
    const nested = project([INSTALLED, `packages/app/${INSTALLED}`])
    expect(schemaReference(join(nested, 'packages/app/evals/golden-set.json'), join(nested, 'packages/app'))).toBe(
      `../${INSTALLED}`,
    )
  })

  it('a project with its own copy (rag-eval golden schema wrote it, or this repository): that copy', () => {
    const dir = project(['evals/golden-set.schema.json', INSTALLED])
    expect(schemaReference(join(dir, 'evals/golden-set.json'), dir)).toBe('./golden-set.schema.json')
    expect(schemaReference(join(dir, 'evals/imported/ragas.json'), dir)).toBe('../golden-set.schema.json')
    expect(schemaReference(join(dir, 'golden.json'), dir)).toBe('./evals/golden-set.schema.json')
  })

  it('no schema anywhere: no $schema line at all rather than a reference to a missing file', () => {
    const dir = project([])
    const file = join(dir, 'evals/golden-set.json')
    expect(schemaReference(file, dir)).toBeNull()
    expect(goldenSetText([], schemaReference(file, dir))).toBe('{\n  "questions": []\n}\n')
    expect(goldenSetText([], './golden-set.schema.json')).toBe(
      '{\n  "$schema": "./golden-set.schema.json",\n  "questions": []\n}\n',
    )
  })
})
