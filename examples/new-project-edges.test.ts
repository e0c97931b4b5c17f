// A new project's rough edges, through the installed bin.
// The package as a user gets it: the packed tarball (packed once per run by packed-tarball.global-setup.ts)
// installed into fresh temp projects (pnpm, from the local store), then the commands a user types. Slow by
// nature (each step is a real Vitest run), so the package project runs these files beside the unit tests.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { run } from '../src/testing/user-project.ts'
import { ragEval, useUserProjects } from './user-projects.ts'

describe('from the packed tarball, in a fresh project', () => {
  const userProject = useUserProjects()

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

    // A first day over one's own documents, in a project of its own (handbook/ beside docs/, which it reads):
    // init --corpus writes no example, the golden set has no question and verify takes it; export reads the config.
    const fresh = at('handbook')
    mkdirSync(fresh)
    const inFresh = (args: string[]) => run(fresh, at('node_modules/.bin/rag-eval'), args)
    const init = await inFresh(['init', '--corpus', '../docs'])
    expect(init.code, init.output).toBe(0)
    expect(init.stdout).toContain(
      'npx rag-eval golden draft --count 30 --estimate   the cost of drafting questions from ../docs/',
    )
    expect(existsSync(join(fresh, 'evals/corpus'))).toBe(false)
    const verified = await inFresh(['golden', 'verify', 'evals/golden-set.json'])
    expect(verified.code, verified.output).toBe(0)
    expect(verified.stdout).toContain('0 candidates: 0 kept, 0 rejected, 0 undecided')
    // The empty set is replaced without --force, from the config's corpus, and exported from it.
    const imported2 = await inFresh(['golden', 'import', '../ragas.jsonl', '--format', 'ragas'])
    expect(imported2.code, imported2.output).toBe(0)
    const exported2 = await inFresh(['golden', 'export', '--format', 'jsonl', '--out', 'out.jsonl'])
    expect(exported2.code, exported2.output).toBe(0)
    expect(exported2.stdout).toContain(`exported 2 questions from ${join(fresh, 'evals/golden-set.json')} to out.jsonl`)

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
})
