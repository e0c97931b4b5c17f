// Every entry point of the packed package, type-checked and run in a user's project.
// The package as a user gets it: the packed tarball (packed once per run by packed-tarball.global-setup.ts)
// installed into fresh temp projects (pnpm, from the local store), then the commands a user types. Slow by
// nature (each step is a real Vitest run), so the package project runs these files beside the unit tests.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { useUserProjects } from './user-projects.ts'

describe('from the packed tarball, in a fresh project', () => {
  const userProject = useUserProjects()

  it('every entry point type-checks and works from the tarball: rag-vitest-eval, /config, /vitest, /matchers', async () => {
    const project = await userProject(undefined, ['typescript@5.9.3', '@types/node@20.19.43'])
    writeFileSync(
      join(project.dir, 'tsconfig.json'),
      JSON.stringify(
        {
          compilerOptions: {
            strict: true,
            module: 'nodenext',
            moduleResolution: 'nodenext',
            target: 'es2022',
            noEmit: true,
            // Every declaration file is checked (the package's, and what they import), but TypeScript's own lib
            // files: they prove nothing about the package and were an eighth of this check's CPU.
            skipLibCheck: false,
            skipDefaultLibCheck: true,
            types: ['node'],
          },
          include: ['src'],
        },
        null,
        2,
      ),
    )
    mkdirSync(join(project.dir, 'src'))
    writeFileSync(
      join(project.dir, 'src/entries.ts'),
      [
        "import { defineConfig } from 'rag-vitest-eval/config'",
        "import { defineRagSystem, fuse, type Report } from 'rag-vitest-eval'",
        "import { ragEval } from 'rag-vitest-eval/vitest'",
        "import { ragMatchers } from 'rag-vitest-eval/matchers'",
        '',
        "export const config = defineConfig({ corpus: 'corpus', goldenSet: 'golden.json', budgetTokens: 600 })",
        '// The types are real: a budget must be a number.',
        '// @ts-expect-error',
        "export const wrong = defineConfig({ corpus: 'corpus', goldenSet: 'golden.json', budgetTokens: 'many' })",
        "export const system = defineRagSystem(() => ({ name: 'stub', answer: async () => ({ ranked: [], context: [] }) }))",
        'export const project = ragEval()',
        'export const matchers = Object.keys(ragMatchers)',
        "export const fused = fuse([[{ id: 'a' }], [{ id: 'a' }, { id: 'b' }]])",
        'export const recall = (report: Report): number | null => report.summary.recall',
        '',
      ].join('\n'),
    )
    const typecheck = await project.run(join(project.dir, 'node_modules/.bin/tsc'), ['-p', '.'])
    expect(typecheck.code, typecheck.output).toBe(0)
    // The matchers in a user's own test, typed through the package's module augmentation.
    writeFileSync(
      join(project.dir, 'src/metric.test.ts'),
      [
        "import { expect, test } from 'vitest'",
        "import { ragMatchers } from 'rag-vitest-eval/matchers'",
        '',
        'expect.extend(ragMatchers)',
        '',
        "test('a drop within the tolerance holds, a larger one regresses', () => {",
        "  expect(0.8).toNotRegressFrom(0.85, { tolerance: 0.1, name: 'recall' })",
        "  expect(() => expect(0.7).toNotRegressFrom(0.85, { tolerance: 0.1, name: 'recall' })).toThrow('expected recall not to fall below its baseline by more than 0.1')",
        '})',
        '',
      ].join('\n'),
    )
    writeFileSync(join(project.dir, 'unit.config.mjs'), "export default { test: { include: ['src/**/*.test.ts'] } }\n")
    const unit = await project.run(join(project.dir, 'node_modules/.bin/vitest'), ['run', '--config', 'unit.config.mjs'])
    expect(unit.code, unit.output).toBe(0)
    expect(unit.stdout).toMatch(/Tests +1 passed \(1\)/)
  })
})
