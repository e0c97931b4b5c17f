// The package as a user gets it: the packed tarball installed into fresh temp projects (pnpm, from the
// local store), then the commands a user types. Slow by nature (each step is a real Vitest run), so it
// is its own Vitest project ('package') that runs beside the unit tests.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { randomBytes } from 'node:crypto'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ReportSchema } from '../src/contract/report-schema.ts'
import { packTarball } from '../src/bench/packed-tarball.ts'
import { tempProject, type CommandResult, type TempProject } from '../src/bench/user-project.ts'
import { startMessagesServer } from '../src/local-server/messages-server.ts'
import { scriptedReply } from '../src/local-server/scripted-responder.ts'

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

/**
 * The stack frames in a run's output that name a file of the installed package (`...node_modules/rag-vitest-eval/<path>:<line>:<column>`):
 * the path inside the package, whether that file is installed and has that line.
 */
function packageFrames(
  output: string,
  projectDir: string,
): { text: string; shipped: string; exists: boolean; lineExists: boolean }[] {
  return [...output.matchAll(/(\S*node_modules\/rag-vitest-eval\/([^\s:()]+)):(\d+):\d+/g)].map((m) => {
    const file = join(projectDir, m[1]!)
    const exists = existsSync(file)
    return {
      text: m[0],
      shipped: m[2]!,
      exists,
      lineExists: exists && readFileSync(file, 'utf8').split('\n').length >= Number(m[3]),
    }
  })
}

describe('from the packed tarball, in a fresh project', () => {
  it('the tarball ships dist/ without source maps (src/ is not shipped: a map would send frames to files a user does not have)', () => {
    const entries = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n')
    expect(entries).toContain('package/dist/vitest/eval-cases.js')
    expect(entries.filter((entry) => entry.endsWith('.map') || entry.startsWith('package/src/'))).toEqual([])
    const cases = execFileSync('tar', ['-xzOf', tarball, 'package/dist/vitest/eval-cases.js'], { encoding: 'utf8' })
    expect(cases).toContain('export function defineQuestionCases(')
    expect(cases).not.toContain('sourceMappingURL')
  })

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
    // Without a baseline the hint names what this project can run, not a script of this repository.
    expect(first.stdout).toContain(
      'gate: no baseline; create it with `npx vitest run --project eval -u` under the same EVAL_MODE',
    )
    expect(first.output).not.toMatch(/pnpm (baseline:update|eval|golden:|model:server)/)
    const report = readReport(join(project.dir, 'evals/reports/latest.json'))
    expect(report.summary).toMatchObject({ questions: 3, recall: 1, refusalRate: 1 })
    expect(report.config.system).toBe('starter-keyword-system')
    const accepted = await vitest(project, ['-u'])
    expect(accepted.code, accepted.output).toBe(0)
    const gated = await vitest(project, [], { GATE: '1' })
    expect(gated.code, gated.output).toBe(0)
    expect(gated.stdout).toContain('gate: passed, no regression beyond the tolerance 0.01 against evals/baseline/')
  })

  it('the rough edges of a new project: folders created, a $schema that exists, every non-UTF-8 file named, RAGAS ids and --allow-unknown, TREC grades kept, the README inside the package', async () => {
    const project = await userProject()
    const at = (path: string) => join(project.dir, path)
    mkdirSync(at('docs'))
    // Corpus ids from the file names: 1 and 2, as RAGAS's integer context ids name them.
    writeFileSync(at('docs/1.md'), '# Plans\n\nThe Team plan costs 10 EUR per seat and month.\n')
    writeFileSync(at('docs/2.md'), '# Parking\n\nThe office has no parking spaces for visitors.\n')
    const sample = (question: string, reference: string | null, ids: unknown[]) =>
      JSON.stringify({ user_input: question, ...(reference === null ? {} : { reference }), reference_context_ids: ids })
    const answerable = sample('How much is the Team plan?', '10 EUR per seat and month.', [1])
    const none = sample('How large is the bonus pool?', null, [])
    const onlyUnknown = sample('Where do visitors park?', 'Nowhere.', [3])
    writeFileSync(at('ragas.jsonl'), [answerable, onlyUnknown, none].join('\n') + '\n')

    // --allow-unknown: the question whose only source (3) is not in the corpus is rejected, not retyped as none.
    const rejected = await ragEval(project, [
      'golden',
      'import',
      'ragas.jsonl',
      '--format',
      'ragas',
      '--corpus',
      'docs',
      '--allow-unknown',
    ])
    expect(rejected.code).toBe(2)
    expect(rejected.stderr).toBe(
      'golden import: ragas.jsonl:2: question q-002: every source was dropped (--allow-unknown), so it has no answer document left; it is not retyped as a none question (one the system must refuse): correct its sources or remove it\n',
    )
    expect(existsSync(at('evals'))).toBe(false)

    // The default --out, evals/golden-set.json, in a project without evals/: created, integer ids read.
    writeFileSync(at('ragas.jsonl'), [answerable, none].join('\n') + '\n')
    const imported = await ragEval(project, ['golden', 'import', 'ragas.jsonl', '--format', 'ragas', '--corpus', 'docs'])
    expect(imported.code, imported.output).toBe(0)
    expect(imported.stdout).toContain('imported 2 questions (1 single, 1 none) from ragas.jsonl into evals/golden-set.json')
    const golden = JSON.parse(readFileSync(at('evals/golden-set.json'), 'utf8')) as {
      $schema: string
      questions: { id: string; type: string; answerDocIds: string[] }[]
    }
    expect(golden.questions.map((q) => [q.id, q.type, q.answerDocIds])).toEqual([
      ['q-001', 'single', ['1']],
      ['q-002', 'none', []],
    ])
    // $schema points at the installed package's schema, and that file is there.
    expect(golden.$schema).toBe('../node_modules/rag-vitest-eval/evals/golden-set.schema.json')
    const schema = JSON.parse(readFileSync(join(at('evals'), golden.$schema), 'utf8')) as { properties: object }
    expect(Object.keys(schema.properties)).toContain('questions')

    // Export into folders that do not exist yet; the none row carries the refusal it expects as its reference.
    const exported = await ragEval(project, [
      'golden',
      'export',
      '--format',
      'ragas',
      '--out',
      'out/ragas/set.jsonl',
      '--corpus',
      'docs',
    ])
    expect(exported.code, exported.output).toBe(0)
    const rows = readFileSync(at('out/ragas/set.jsonl'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as object)
    expect(rows[1]).toEqual({
      user_input: 'How large is the bonus pool?',
      reference: 'The provided documents do not contain the answer to this question.',
      reference_contexts: [],
      reference_context_ids: [],
    })

    // Graded relevance from TREC qrels: the grades kept on import (0: judged not relevant), written back on export.
    writeFileSync(at('graded.qrels'), 'q-001 0 1 3\nq-001 0 2 0\n')
    writeFileSync(at('graded.topics.json'), JSON.stringify({ 'q-001': 'How much is the Team plan?' }))
    const gradedImport = await ragEval(project, [
      'golden',
      'import',
      'graded.qrels',
      '--format',
      'trec',
      '--topics',
      'graded.topics.json',
      '--out',
      'evals/graded.json',
      '--corpus',
      'docs',
    ])
    expect(gradedImport.code, gradedImport.output).toBe(0)
    const graded = JSON.parse(readFileSync(at('evals/graded.json'), 'utf8')) as {
      questions: { answerDocIds: string[]; relevance?: Record<string, number> }[]
    }
    // A grade-0 judgement marks a document as not relevant: nothing to keep in the set beside the graded ones.
    expect(graded.questions.map((q) => [q.answerDocIds, q.relevance])).toEqual([[['1'], { '1': 3 }]])
    const gradedExport = await ragEval(project, [
      'golden',
      'export',
      '--format',
      'trec',
      '--golden',
      'evals/graded.json',
      '--out',
      'out/graded.qrels',
      '--corpus',
      'docs',
    ])
    expect(gradedExport.code, gradedExport.output).toBe(0)
    expect(readFileSync(at('out/graded.qrels'), 'utf8')).toBe('q-001 0 1 3\n')

    // Two files that are not UTF-8: both named, in path order.
    writeFileSync(at('docs/3.md'), Uint8Array.from([0x92, ...Buffer.from(' quoted\n')]))
    writeFileSync(at('docs/4.md'), Uint8Array.from([...Buffer.from('ok\nCa'), 0xe9, 0x0a]))
    const check = await ragEval(project, ['golden', 'import', 'ragas.jsonl', '--format', 'ragas', '--corpus', 'docs', '--force'])
    expect(check.code).toBe(2)
    const hint = 'does not start a valid UTF-8 sequence; save the file as UTF-8 (it may be Latin-1 or Windows-1252)'
    expect(check.stderr).toBe(
      [
        'golden import: 2 corpus files are not valid UTF-8:',
        `docs/3.md: not valid UTF-8: byte 0x92 at byte offset 0 (line 1) ${hint}`,
        `docs/4.md: not valid UTF-8: byte 0xE9 at byte offset 5 (line 2) ${hint}`,
        '',
      ].join('\n'),
    )

    // The README the package ships sends readers nowhere outside it: the metric definitions are in its docs/.
    const readme = readFileSync(at('node_modules/rag-vitest-eval/README.md'), 'utf8')
    expect(readme).not.toMatch(/\.\.\/shared|DESIGN\.md/)
    const docs = [...new Set([...readme.matchAll(/\bdocs\/[\w-]+\.md\b/g)].map((m) => m[0]))]
    expect(docs).toContain('docs/metrics.md')
    expect(docs.filter((doc) => !existsSync(at(`node_modules/rag-vitest-eval/${doc}`)))).toEqual([])
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
    // The failing cases' stack frames name files the package ships, at lines they have (issue 22.5): the
    // package ships no source maps, which sent them to src/ files it does not ship.
    const frames = packageFrames(broken.output, project.dir)
    expect(frames.map((f) => f.shipped)).toContain('dist/vitest/eval-cases.js')
    for (const frame of frames) expect(frame, frame.text).toMatchObject({ exists: true, lineExists: true })
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

describe('examples/api-key-service: a header secret from the environment, kept out of every byte written and printed', () => {
  /** Every file under the project written or changed since `since` (node_modules included: Vitest's caches live there). */
  function filesWrittenSince(dir: string, since: number): string[] {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name))
      .filter((path) => statSync(path).mtimeMs >= since)
  }
  /** Any 10 characters of the secret's random part in a row: a secret cut by an excerpt still leaks. */
  const pieces = (secret: string) => Array.from({ length: secret.length - 9 }, (_, at) => secret.slice(at, at + 10))
  const leaks = (text: string, secret: string) => pieces(secret).filter((piece) => text.includes(piece))

  it('resolves ${env:RAG_API_KEY} at the start (a missing one named before any request), and redacts its value from reports, caches, recordings, blobs, compare files, logs and Vitest output', async () => {
    const project = await userProject('examples/api-key-service')
    const port = String(await freePort())
    const config = join(project.dir, 'rag-eval.config.ts')
    const example = readFileSync(config, 'utf8')
    writeFileSync(config, example.replaceAll('8766', port))
    // Run B of EVAL_COMPARE: the same service under another name, on a port of its own (B runs beside A, and each
    // starts its service: on one port the second would find it taken).
    writeFileSync(
      join(project.dir, 'rag-eval.b.config.ts'),
      example
        .replaceAll('8766', String(await freePort()))
        .replace("baseline: 'baseline',", "baseline: 'baseline',\n  reports: 'reports-b',"),
    )
    const started = Date.now()
    const outputs: CommandResult[] = []
    const run = async (args: string[], env: Record<string, string>) => {
      const result = await vitest(project, args, { EVAL_MAX_RETRIES: '1', EVAL_RETRY_BASE_MS: '10', ...env })
      outputs.push(result)
      return result
    }
    const hex = (bytes: number) => randomBytes(bytes).toString('hex')

    // No variable: the run stops before the service is started, naming it.
    const missing = await run([], { RAG_API_KEY: '' })
    expect(missing.code).toBe(1)
    expect(missing.output).toContain(
      'system.http: the environment variable RAG_API_KEY is not set (or empty), referenced by headers.Authorization; set it before the run',
    )
    expect(missing.output).not.toContain('[service]')

    // An offline run (the evaluation in a thread of Vitest) beside a comparison, with a service that echoes the key.
    const secretA = `sk-${hex(16)}`
    const offline = await run([], { RAG_API_KEY: secretA, LEAKY: '1', EVAL_COMPARE: 'rag-eval.b.config.ts' })
    // k-002 and k-003 fail (system errors): the cases fail and quote the service's bodies, redacted.
    expect(offline.code, offline.output).toBe(1)
    expect(offline.output).toContain(
      `k-003: http://127.0.0.1:${port}/rag answered HTTP 422: {"error":"cannot answer","request":{"headers":{`,
    )
    expect(offline.output).toContain('"authorization":"[REDACTED]"')
    expect(offline.output).toContain('[service] POST k-001 authorization=[REDACTED]')
    const report = readReport(join(project.dir, 'reports/latest.json'))
    expect(report.questions.find((q) => q.id === 'k-001')?.answer).toMatch(/\(served for \[REDACTED\]\)$/)
    expect(report.questions.filter((q) => q.systemError !== null).map((q) => q.id)).toEqual(['k-002', 'k-003'])
    expect(report.questions.find((q) => q.id === 'k-002')?.systemError).toContain(
      'answered HTTP 503: upstream timed out; the request was {',
    )
    expect(existsSync(join(project.dir, 'reports/compare.json'))).toBe(true)

    // Record mode (the evaluation in a child process), against the local Messages API: the judge's prompts
    // quote the answer, so a secret in it would be in the model cache, the recording, and the cache keys.
    const model = await startMessagesServer(scriptedReply)
    try {
      const modelEnv = { EVAL_MODE: 'record', ANTHROPIC_API_KEY: 'test-key', ANTHROPIC_BASE_URL: model.url, LEAKY: '1' }
      const recorded = await run([], { ...modelEnv, RAG_API_KEY: secretA })
      expect(recorded.code, recorded.output).toBe(1)
      const calls = model.requests.length
      expect(calls).toBeGreaterThan(0)
      const cacheKeys = () =>
        filesWrittenSince(join(project.dir, '.cache/model'), 0)
          .map((path) => path.slice(project.dir.length))
          .sort()
      const keysA = cacheKeys()
      expect(keysA.length).toBeGreaterThan(0)
      // Another key, the same requests: every call is a cache hit, under the same keys. The key is in none of them.
      const secretB = `sk-${hex(16)}`
      const again = await run([], { ...modelEnv, EVAL_MODE: 'live', RAG_API_KEY: secretB })
      expect(again.code, again.output).toBe(1)
      expect(model.requests.length).toBe(calls)
      expect(cacheKeys()).toEqual(keysA)
      expect(model.requests.map((request) => JSON.stringify(request.body)).join('\n')).toContain('[REDACTED]')
      for (const request of model.requests) expect(leaks(JSON.stringify(request), secretA)).toEqual([])

      // Shards: each with the blob reporter, then the merge. One after the other, as on one machine: each starts the
      // service on the config's port, so two at once would find it taken.
      for (const index of [1, 2]) {
        const shard = await run([`--shard=${index}/2`, '--reporter=blob'], { RAG_API_KEY: secretB, LEAKY: '1' })
        expect(shard.output).not.toContain('not set')
      }
      expect(readdirSync(join(project.dir, '.vitest-reports')).sort()).toEqual(['blob-1-2.json', 'blob-2-2.json'])
      const merged = await vitest(project, ['--merge-reports'], { RAG_API_KEY: secretB })
      outputs.push(merged)
      expect(merged.output).toContain('k-003')

      // Every byte this test made the suite write or print: no piece of either key.
      const written = filesWrittenSince(project.dir, started)
      expect(written.map((path) => path.slice(project.dir.length + 1))).toEqual(
        expect.arrayContaining([
          'reports/latest.json',
          'reports/latest.md',
          'reports/contexts.jsonl',
          'reports/compare.json',
          'reports/compare.md',
          expect.stringMatching(/^\.cache\/model\//),
          expect.stringMatching(/^fixtures\/recordings\/golden-set\//),
          '.vitest-reports/blob-1-2.json',
          expect.stringMatching(/^reports\/shards\//),
        ]),
      )
      for (const secret of [secretA, secretB]) {
        for (const path of written) expect(leaks(readFileSync(path, 'latin1'), secret), path).toEqual([])
        for (const output of outputs) expect(leaks(output.output, secret)).toEqual([])
      }
    } finally {
      await model.close()
    }
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
