// The package as a user gets it: the packed tarball installed into fresh temp projects (pnpm, from the
// local store), then the commands a user types. Slow by nature (each step is a real Vitest run), so it
// is its own Vitest project ('package') that runs beside the unit tests.
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ReportSchema } from '../src/contract/report-schema.ts'
import { packTarball } from '../src/bench/packed-tarball.ts'
import { tempProject, type TempProject } from '../src/bench/user-project.ts'

let tarball = ''
let removeTarball = () => {}
beforeAll(() => {
  ;({ tarball, remove: removeTarball } = packTarball())
})
afterAll(() => removeTarball())
const projects: TempProject[] = []
afterEach(() => {
  for (const project of projects.splice(0)) project.remove()
})

async function userProject(source?: string, extra?: string[]): Promise<TempProject> {
  const project = await tempProject(tarball, { ...(source ? { source } : {}), ...(extra ? { extra } : {}) })
  projects.push(project)
  return project
}

const vitest = (project: TempProject, args: string[], env: Record<string, string> = {}) =>
  project.run(join(project.dir, 'node_modules/.bin/vitest'), ['run', '--reporter=verbose', ...args], env)
const ragEval = (project: TempProject, args: string[], env: Record<string, string> = {}) =>
  project.run(join(project.dir, 'node_modules/.bin/rag-eval'), args, env)
const readReport = (file: string) => ReportSchema.parse(JSON.parse(readFileSync(file, 'utf8')))
const committed = (example: string, file: string) => readFileSync(join('examples', example, 'baseline', file), 'utf8')

describe('from the packed tarball, in a fresh project', () => {
  it('rag-eval init, then vitest run passes, vitest run -u writes the baseline, GATE=1 passes against it', async () => {
    const project = await userProject()
    const init = await ragEval(project, ['init'])
    expect(init.code, init.output).toBe(0)
    expect(init.stdout).toContain('created rag-eval.config.ts')
    // The evaluation's thread runs from the bundle `pnpm build` made (src/threads/thread-bundle.ts).
    expect(existsSync(join(project.dir, 'node_modules/rag-vitest-eval/dist/threads/evaluation-host-main.mjs'))).toBe(true)
    const first = await vitest(project, [])
    expect(first.code, first.output).toBe(0)
    // One case per golden question, named `<id> [<type>] <question>`.
    expect(first.stdout).toContain('q-003 [none] What is the office parking policy?')
    const report = readReport(join(project.dir, 'evals/reports/latest.json'))
    expect(report.summary).toMatchObject({ questions: 3, recall: 1, refusalRate: 1 })
    expect(report.config.system).toBe('starter-keyword-system')
    const accepted = await vitest(project, ['-u'])
    expect(accepted.code, accepted.output).toBe(0)
    const gated = await vitest(project, [], { GATE: '1' })
    expect(gated.code, gated.output).toBe(0)
    expect(gated.stdout).toContain('gate: passed, no regression beyond the tolerance 0.01 against evals/baseline/')
  })

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
            skipLibCheck: false,
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

  it('examples/in-process: per-question cases with userContext and a follow-up question, the committed baseline reproduced by vitest -u, GATE=1 failing when the system is broken', async () => {
    const project = await userProject('examples/in-process', ['minisearch@7.2.0'])
    rmSync(join(project.dir, 'baseline'), { recursive: true, force: true })
    const accepted = await vitest(project, ['-u'])
    expect(accepted.code, accepted.output).toBe(0)
    expect(accepted.stdout).toContain('q-004 [none] How large is the 2026 bonus pool?')
    // The same inputs give the same baseline as the one committed beside the example.
    expect(readFileSync(join(project.dir, 'baseline/summary.json'), 'utf8')).toBe(committed('in-process', 'summary.json'))
    expect(readFileSync(join(project.dir, 'baseline/questions.json'), 'utf8')).toBe(committed('in-process', 'questions.json'))
    const report = readReport(join(project.dir, 'reports/latest.json'))
    // The same question, asked by a manager and by an employee: only the manager gets the bonus document.
    expect(report.questions.find((q) => q.id === 'q-003')).toMatchObject({
      userContext: { role: 'manager' },
      hit: true,
      refused: false,
    })
    expect(report.questions.find((q) => q.id === 'q-004')).toMatchObject({
      userContext: { role: 'employee' },
      refused: true,
      rankedDocIds: expect.not.arrayContaining(['finance/bonus-2026']),
    })
    // A follow-up question: the system searched with its history and answered from the vacation page.
    expect(report.questions.find((q) => q.id === 'q-011')).toMatchObject({
      history: [
        { role: 'user', content: 'How many days of paid vacation do employees get per year?' },
        { role: 'assistant', content: '25 days of paid vacation per calendar year, on top of public holidays.' },
      ],
      hit: true,
      refused: false,
    })
    expect(report.questions.find((q) => q.id === 'q-011')!.rankedDocIds[0]).toBe('handbook/vacation')
    const gated = await vitest(project, [], { GATE: '1' })
    expect(gated.code, gated.output).toBe(0)
    const broken = await vitest(project, [], { GATE: '1', RAG_EXAMPLE_BROKEN: '1' })
    expect(broken.code).toBe(1)
    expect(broken.stdout).toMatch(/× .*gated metrics > mrr does not regress/)
    expect(broken.stdout).toContain('gate: FAILED')
    // The retrieval tier through the bin, without Vitest: the same config, TypeScript system module and all.
    const retrieval = await ragEval(project, ['retrieval'])
    expect(retrieval.code, retrieval.output).toBe(0)
    expect(retrieval.stdout).toContain('minisearch-rbac · retrieval tier')
  })

  it('examples/http-service: the Python service started by the suite, per-question cases, GATE=1 failing when the service is broken', async () => {
    const project = await userProject('examples/http-service')
    // A port of its own: two checkouts testing at once must not meet on the example's 8765.
    const config = join(project.dir, 'rag-eval.config.ts')
    const port = String(await freePort())
    writeFileSync(config, readFileSync(config, 'utf8').replaceAll('8765', port))
    rmSync(join(project.dir, 'baseline'), { recursive: true, force: true })
    const accepted = await vitest(project, ['-u'])
    expect(accepted.code, accepted.output).toBe(0)
    expect(accepted.stdout).toMatch(/h-007 \[single\]/)
    // The same baseline as the committed one, but for the port in the system's url.
    const summary = readFileSync(join(project.dir, 'baseline/summary.json'), 'utf8')
    expect(summary.replaceAll(`127.0.0.1:${port}`, '127.0.0.1:8765')).toBe(committed('http-service', 'summary.json'))
    expect(readFileSync(join(project.dir, 'baseline/questions.json'), 'utf8')).toBe(committed('http-service', 'questions.json'))
    // The follow-up question reached the service with its history: the pets page first, the two-dogs sentence.
    expect(readReport(join(project.dir, 'reports/latest.json')).questions.find((q) => q.id === 'h-013')).toMatchObject({
      history: [
        { role: 'user', content: 'Can I bring my dog on the ferry?' },
        { role: 'assistant', content: 'Yes: dogs are welcome on the open upper deck, on a short leash.' },
      ],
      hit: true,
      answer: 'Dogs are welcome on the open upper deck, on a short leash, with at most two dogs per passenger.',
    })
    expect(readReport(join(project.dir, 'reports/latest.json')).questions.find((q) => q.id === 'h-013')!.rankedDocIds[0]).toBe(
      'passengers/pets',
    )
    const gated = await vitest(project, [], { GATE: '1' })
    expect(gated.code, gated.output).toBe(0)
    const broken = await vitest(project, [], { GATE: '1', BROKEN: '1' })
    expect(broken.code).toBe(1)
    expect(broken.stdout).toContain('gate: FAILED')
  })
})

/** A TCP port nobody listens on now (the OS's choice). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}
