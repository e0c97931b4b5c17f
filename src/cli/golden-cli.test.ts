import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadCorpus } from '../load/corpus.ts'
import { loadGoldenSet } from '../load/golden-set.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { ragEvalArgv } from '../testing/rag-eval-bin.ts'
import { ragEvalInProcess } from './testing/rag-eval-in-process.ts'

const corpus = 'fixtures/golden-lint/corpus'
const LOW_FLOORS = 'single=1,multi=1,contradiction=1,none=1'

/** Runs `rag-eval golden <name>` as `pnpm golden:<name>` does, with stdin a pipe (not a terminal): in-process. */
const run = (name: string, args: string[]) => ragEvalInProcess(['golden', name, ...args])

/** The same through the bin itself, once for each command here. */
function spawned(name: string, args: string[]) {
  const result = spawnSync(process.execPath, ragEvalArgv(['golden', name, ...args]), {
    encoding: 'utf8',
    input: '',
  })
  return { code: result.status, stdout: result.stdout, stderr: result.stderr }
}

const temp = useTempDirs()
const tempDir = () => temp.make('golden-cli-')

describe('pnpm golden:check', () => {
  it('exits 0 on a clean set and ends with the count line', () => {
    const result = spawned('check', ['--golden', 'fixtures/golden-lint/clean.json', '--corpus', corpus, '--floors', LOW_FLOORS])
    expect(result).toMatchObject({ code: 0, stderr: '' })
    expect(result.stdout).toBe('golden:check: 0 errors, 0 warnings in 5 questions\n')
  })

  it('warns about a control character in a question (a form feed from a PDF), naming where it is', async () => {
    const golden = join(tempDir(), 'golden-set.json')
    const set = JSON.parse(readFileSync('fixtures/golden-lint/clean.json', 'utf8')) as { questions: { question: string }[] }
    set.questions[1]!.question = set.questions[1]!.question.replace(' ', '\f')
    writeFileSync(golden, JSON.stringify(set))
    const result = await run('check', ['--golden', golden, '--corpus', corpus, '--floors', LOW_FLOORS])
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(
      'warnings\n  control-character (1): a question or gold answer holds an invisible control character\n' +
        `    q-002  question holds the control character U+000C at character ${set.questions[1]!.question.indexOf('\f') + 1}\n` +
        '           fix: replace it with a space (text copied from a PDF carries page breaks as form feeds)',
    )
  })

  it('exits 1 on errors, grouped by severity and rule, and reports JSON with --json', async () => {
    const text = await run('check', ['--golden', 'fixtures/golden-lint/unsupported-fact.json', '--corpus', corpus])
    expect(text.code).toBe(1)
    expect(text.stdout.split('\n').slice(0, 3)).toEqual([
      'errors',
      '  unsupported-fact (2): the gold answer states a number none of its answer documents states',
      '    q-001  goldAnswer states the number 21, found in none of its answer docs (doc-001)',
    ])
    expect(text.stdout).toContain(
      'warnings\n  type-distribution (4): fewer questions of a type than its floor\n    (set)  2 single questions, below the floor of 50',
    )
    expect(text.stdout.trimEnd().split('\n').at(-1)).toBe('golden:check: 2 errors, 4 warnings in 5 questions')
    const json = await run('check', [
      '--golden',
      'fixtures/golden-lint/unsupported-fact.json',
      '--corpus',
      corpus,
      '--floors',
      LOW_FLOORS,
      '--json',
    ])
    expect(json.code).toBe(1)
    expect(JSON.parse(json.stdout)).toMatchObject({
      questions: 5,
      complete: true,
      errors: 2,
      warnings: 0,
      findings: [{ rule: 'unsupported-fact', questionId: 'q-001' }, { questionId: 'q-002' }],
    })
  })

  it('exits 0 with warnings only, and 2 on input it cannot read', async () => {
    expect(
      (await run('check', ['--golden', 'fixtures/golden-lint/none-too-easy.json', '--corpus', corpus, '--floors', LOW_FLOORS]))
        .code,
    ).toBe(0)
    const missing = await run('check', ['--golden', 'fixtures/golden-lint/absent.json', '--corpus', corpus])
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(
      /^golden check: --golden fixtures\/golden-lint\/absent\.json: not found \(expected a file\)\nusage: rag-eval golden check /,
    )
  })
})

describe('pnpm golden:export and golden:import', () => {
  it('exports TREC qrels and topics, imports them back, and refuses to overwrite without --force', async () => {
    const dir = tempDir()
    const exported = spawned('export', [
      '--format',
      'trec',
      '--out',
      join(dir, 'gold.qrels'),
      '--golden',
      'fixtures/golden-lint/clean.json',
      '--corpus',
      corpus,
    ])
    expect(exported.code).toBe(0)
    expect(readFileSync(join(dir, 'gold.qrels'), 'utf8').split('\n')[0]).toBe('q-001 0 doc-001 1')
    expect(JSON.parse(readFileSync(join(dir, 'gold.topics.json'), 'utf8'))).toMatchObject({
      'q-005': 'How long is the workspace audit log retained?',
    })

    const out = join(dir, 'golden-set.json')
    const imported = spawned('import', [
      join(dir, 'gold.qrels'),
      '--format',
      'trec',
      '--topics',
      join(dir, 'gold.topics.json'),
      '--out',
      out,
      '--corpus',
      corpus,
    ])
    expect(imported.code).toBe(0)
    expect(imported.stdout).toContain(
      `imported 5 questions (2 single, 2 multi, 1 none) from ${join(dir, 'gold.qrels')} into ${out}`,
    )
    expect(imported.stderr).toContain('warning: 4 questions got the placeholder gold answer')
    const written = JSON.parse(readFileSync(out, 'utf8')) as { $schema: string }
    expect(written.$schema.endsWith('evals/golden-set.schema.json')).toBe(true)
    expect(loadGoldenSet(out, loadCorpus(corpus)).map((q) => q.id)).toEqual(['q-001', 'q-002', 'q-003', 'q-004', 'q-005'])

    const again = await run('import', [
      join(dir, 'gold.qrels'),
      '--format',
      'trec',
      '--topics',
      join(dir, 'gold.topics.json'),
      '--out',
      out,
      '--corpus',
      corpus,
    ])
    expect(again).toMatchObject({
      code: 2,
      stderr: `golden import: ${out} exists: pass --force to replace it, or --out another file (rag-eval golden add appends one question at a time)\n`,
    })
  })

  it("in a project `init --corpus` made: the config's corpus and golden set, its empty set replaced without --force, verified as it is", async () => {
    const dir = tempDir()
    mkdirSync(join(dir, 'handbook'))
    writeFileSync(join(dir, 'handbook/plans.md'), '# Plans\n\nThe Team plan costs 10 EUR per seat and month.\n')
    writeFileSync(join(dir, 'rag-eval.config.mjs'), "export default { corpus: 'handbook', goldenSet: 'evals/golden-set.json' }\n")
    mkdirSync(join(dir, 'evals'))
    const golden = join(dir, 'evals/golden-set.json')
    writeFileSync(golden, '{\n  "questions": []\n}\n')
    const io = { cwd: dir }
    // No question yet: verified as it is (no candidate to judge).
    const verified = await ragEvalInProcess(['golden', 'verify', golden, '--out', join(dir, 'verified.jsonl')], io)
    expect(verified).toMatchObject({ code: 0, stderr: '' })
    expect(verified.stdout).toContain('0 candidates: 0 kept, 0 rejected, 0 undecided')
    const line = {
      question: 'How much is the Team plan?',
      gold_answer: '10 EUR per seat and month.',
      gold_sources: ['plans'],
      type: 'single',
    }
    writeFileSync(join(dir, 'team.jsonl'), `${JSON.stringify(line)}\n`)
    const imported = await ragEvalInProcess(['golden', 'import', join(dir, 'team.jsonl'), '--format', 'jsonl'], io)
    expect(imported, imported.stderr).toMatchObject({ code: 0, stderr: '' })
    expect(imported.stdout).toContain(`imported 1 question (1 single) from ${join(dir, 'team.jsonl')} into ${golden}`)
    const exported = await ragEvalInProcess(['golden', 'export', '--format', 'jsonl', '--out', join(dir, 'out.jsonl')], io)
    expect(exported).toMatchObject({ code: 0, stderr: '' })
    expect(JSON.parse(readFileSync(join(dir, 'out.jsonl'), 'utf8'))).toMatchObject({ id: 'q-001', gold_sources: ['plans'] })
    // Now it has a question: replaced only with --force.
    const again = await ragEvalInProcess(['golden', 'import', join(dir, 'team.jsonl'), '--format', 'jsonl'], io)
    expect(again.stderr).toBe(
      `golden import: ${golden} exists: pass --force to replace it, or --out another file (rag-eval golden add appends one question at a time)\n`,
    )
  })

  it('creates the folders of the files it writes: import, export (qrels and topics) and schema into folders that do not exist', async () => {
    const dir = tempDir()
    const file = join(dir, 'gold.jsonl')
    writeFileSync(
      file,
      '{"question": "How long is a new API key valid?", "gold_answer": "API keys expire after 90 days by default.", "gold_sources": ["doc-001"], "type": "single"}\n',
    )
    const out = join(dir, 'fresh/evals/golden-set.json')
    const imported = await run('import', [file, '--format', 'jsonl', '--out', out, '--corpus', corpus])
    expect(imported.stderr).toBe('')
    expect(imported.code).toBe(0)
    expect(loadGoldenSet(out, loadCorpus(corpus)).map((q) => [q.id, q.answerDocIds])).toEqual([['q-001', ['doc-001']]])
    const exported = await run('export', [
      '--format',
      'trec',
      '--out',
      join(dir, 'a/b/gold.qrels'),
      '--topics',
      join(dir, 'c/topics.tsv'),
      '--golden',
      out,
      '--corpus',
      corpus,
    ])
    expect(exported.code, exported.stderr).toBe(0)
    expect(readFileSync(join(dir, 'a/b/gold.qrels'), 'utf8')).toBe('q-001 0 doc-001 1\n')
    expect(readFileSync(join(dir, 'c/topics.tsv'), 'utf8')).toBe('q-001\tHow long is a new API key valid?\n')
    const schema = spawned('schema', ['--out', join(dir, 'd/e/golden-set.schema.json')])
    expect(schema.code, schema.stderr).toBe(0)
    expect(JSON.parse(readFileSync(join(dir, 'd/e/golden-set.schema.json'), 'utf8'))).toHaveProperty('properties.questions')
    // A file where a folder of the path should be is an error naming it, before anything is read.
    const blocked = await run('import', [file, '--format', 'jsonl', '--out', join(file, 'golden-set.json'), '--corpus', corpus])
    expect(blocked.code).toBe(2)
    expect(blocked.stderr.split('\n')[0]).toBe(
      `golden import: --out ${join(file, 'golden-set.json')}: ${file} is a file, not a folder`,
    )
  })

  it('fails on unknown sources with their line numbers and writes nothing; --allow-unknown drops them with a warning', async () => {
    const dir = tempDir()
    const file = join(dir, 'gold.jsonl')
    writeFileSync(
      file,
      [
        '{"question": "How long is a new API key valid?", "gold_answer": "API keys expire after 90 days by default.", "gold_sources": ["doc-001"], "type": "lookup"}',
        '{"question": "Who approves a big credit?", "gold_answer": "The CFO, Elena Marsh.", "gold_sources": ["doc-002", "doc-404"], "type": "lookup"}',
      ].join('\n'),
    )
    const out = join(dir, 'golden-set.json')
    const failed = await run('import', [file, '--format', 'jsonl', '--out', out, '--corpus', corpus])
    expect(failed.code).toBe(2)
    expect(failed.stderr).toBe(
      `golden import: ${file}:2: question q-002: gold_sources[1] "doc-404" is not a document of the corpus\n1 unknown source: correct it, add the document to the corpus, or pass --allow-unknown to drop it\n`,
    )
    expect(existsSync(out)).toBe(false)
    const allowed = await run('import', [file, '--format', 'jsonl', '--out', out, '--corpus', corpus, '--allow-unknown'])
    expect(allowed.code).toBe(0)
    expect(allowed.stderr).toBe(
      `warning: ${file}:2: question q-002: gold_sources[1] "doc-404" is not a document of the corpus (dropped: --allow-unknown)\n`,
    )
    expect(loadGoldenSet(out, loadCorpus(corpus)).map((q) => q.answerDocIds)).toEqual([['doc-001'], ['doc-002']])
  })
})

describe('pnpm golden:add, non-interactive', () => {
  const flags = [
    '--corpus',
    corpus,
    '--type',
    'lookup',
    '--question',
    'Who is the CFO?',
    '--answer-docs',
    'doc-002',
    '--gold-answer',
    'The CFO is Elena Marsh.',
  ]

  it('appends the question, keeping every byte of the file before and after it', () => {
    const file = join(tempDir(), 'golden-set.json')
    copyFileSync('fixtures/golden-lint/clean.json', file)
    const before = readFileSync(file, 'utf8')
    const result = spawned('add', ['--golden', file, ...flags, '--notes', "doc-002 'The CFO is Elena Marsh.'", '--yes'])
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain('hit: yes, doc-002 is in the context')
    expect(result.stdout).toContain(`appended q-006 (single) to ${file}`)
    const after = readFileSync(file, 'utf8')
    const end = before.lastIndexOf('}', before.lastIndexOf(']')) + 1 // just past the last question
    expect(after.startsWith(before.slice(0, end))).toBe(true)
    expect(after.endsWith(before.slice(end))).toBe(true)
    expect(after.slice(end, after.length - (before.length - end))).toBe(
      ',\n    {\n      "id": "q-006",\n      "type": "single",\n      "question": "Who is the CFO?",\n      "answerDocIds": ["doc-002"],\n      "goldAnswer": "The CFO is Elena Marsh.",\n      "notes": "doc-002 \'The CFO is Elena Marsh.\'"\n    }',
    )
    expect(loadGoldenSet(file, loadCorpus(corpus)).at(-1)).toEqual({
      id: 'q-006',
      type: 'single',
      question: 'Who is the CFO?',
      answerDocIds: ['doc-002'],
      goldAnswer: 'The CFO is Elena Marsh.',
      notes: "doc-002 'The CFO is Elena Marsh.'",
    })
  })

  it('--create starts a new golden set with the question; without it a missing file is an error and nothing is written', async () => {
    const file = join(tempDir(), 'new-set.json')
    const refused = await run('add', ['--golden', file, ...flags, '--yes'])
    expect(refused.code).toBe(2)
    expect(refused.stderr.split('\n')[0]).toBe(`golden add: --golden ${file}: not found (expected a file)`)
    expect(existsSync(file)).toBe(false)
    const created = await run('add', ['--golden', file, '--create', ...flags, '--yes'])
    expect(created).toMatchObject({ code: 0, stderr: '' })
    expect(loadGoldenSet(file, loadCorpus(corpus)).map((q) => [q.id, q.type, q.answerDocIds])).toEqual([
      ['q-001', 'single', ['doc-002']],
    ])
  })

  it('--probe-docs appends a cross-tenant probe; without a userContext it is refused, naming the field', async () => {
    const file = join(tempDir(), 'golden-set.json')
    copyFileSync('fixtures/golden-lint/clean.json', file)
    const probe = ['--golden', file, '--corpus', corpus, '--type', 'none', '--question', 'Who is the CFO of the other firm?']
    const refused = await run('add', [...probe, '--probe-docs', 'doc-002', '--yes'])
    expect([refused.code, refused.stderr.split('\n')[0]]).toEqual([
      2,
      'golden add: probeDocIds: a cross-tenant probe is a none question with a userContext: the asker must get a refusal',
    ])
    const added = await run('add', [...probe, '--user-context', '{"tenant": "globex"}', '--probe-docs', 'doc-002', '--yes'])
    expect(added.code, added.stderr).toBe(0)
    expect(loadGoldenSet(file, loadCorpus(corpus)).at(-1)).toMatchObject({
      type: 'none',
      userContext: { tenant: 'globex' },
      probeDocIds: ['doc-002'],
    })
  })

  it('without --yes shows the preview but writes nothing (no terminal to confirm on)', async () => {
    const file = join(tempDir(), 'golden-set.json')
    copyFileSync('fixtures/golden-lint/clean.json', file)
    const result = await run('add', ['--golden', file, ...flags])
    expect(result.code).toBe(2)
    expect(result.stdout).toContain('Top 1 chunk of the built-in system for q-006:')
    expect(result.stderr).toBe(
      'golden add: not written: stdin is not a terminal, so golden:add cannot ask for confirmation; pass --yes to append\n',
    )
    expect(readFileSync(file, 'utf8')).toBe(readFileSync('fixtures/golden-lint/clean.json', 'utf8'))
  })

  it('rejects a taken id (suggesting the next free one), unknown answer docs and missing flags', async () => {
    const golden = ['--golden', 'fixtures/golden-lint/clean.json']
    expect((await run('add', [...golden, ...flags, '--id', 'q-002', '--yes'])).stderr).toBe(
      'golden add: --id: id q-002 is taken; the next free id is q-006\n',
    )
    expect((await run('add', [...golden, ...flags, '--answer-docs', 'doc-002,doc-404', '--yes'])).stderr).toBe(
      'golden add: --answer-docs: not in the corpus: doc-404\n',
    )
    const missing = await run('add', [...golden, '--corpus', corpus, '--type', 'contradiction', '--question', 'Q?'])
    expect(missing).toMatchObject({
      code: 2,
      stderr:
        'golden add: missing --answer-docs (or --relevance), --gold-answer, --governing: stdin is not a terminal, so golden:add cannot ask for them\n',
    })
  })
})
