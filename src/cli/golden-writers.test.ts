import { copyFileSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { GoldenQuestionSchema, type GoldenQuestion } from '../contract/golden-set-schema.ts'
import { appendQuestionText } from '../golden/append/append-question.ts'
import { goldenSetText } from '../golden/golden-set-text.ts'
import { loadCorpus } from '../load/corpus.ts'
import { loadGoldenSet, validateGoldenSet } from '../load/golden-set.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { ragEvalInProcess } from './testing/rag-eval-in-process.ts'

// Every writer of golden-set files keeps every field the schema has (an import of 100 rows
// with user_context once wrote a set without any, in silence).

const corpus = 'fixtures/golden-lint/corpus'
const docs = loadCorpus(corpus)
const temp = useTempDirs()

/** Runs `rag-eval golden <name>` in-process, with no terminal (golden-cli.test.ts spawns the bin). */
const run = (name: string, args: string[]) => ragEvalInProcess(['golden', name, ...args])

const userContext = { tenant: 'acme', role: 'security', permissions: ['sla:read'], level: 2, sso: null, region: { eu: true } }
const history: GoldenQuestion['history'] = [
  { role: 'user', content: 'We confirmed a Medium finding on 2 March 2026.' },
  { role: 'assistant', content: 'Noted: a Medium finding, confirmed on 2 March 2026.' },
]

/** A question with every field of the schema set (a contradiction: the only type with a governing document). */
const everyField: GoldenQuestion = {
  id: 'q-006',
  type: 'contradiction',
  history,
  question: 'So how quickly must it be patched?',
  answerDocIds: ['doc-006', 'doc-005'],
  relevance: { 'doc-006': 3, 'doc-005': 1, 'doc-007': 0 },
  goldAnswer: 'Within 21 days of confirmation; the older 30 days no longer applies.',
  governingDocId: 'doc-006',
  notes: 'doc-006 supersedes doc-005; doc-007 is a distractor.',
  userContext,
  provenance: {
    origin: 'drafted',
    model: 'claude-sonnet-4-5',
    promptHash: 'sha256:4f2a',
    draftedAt: '2026-12-01T09:30:00.000Z',
    reviewedBy: 'ana',
    reviewedAt: '2026-12-01T10:05:00.000Z',
  },
}

/** A cross-tenant probe: its probeDocIds are the one field a contradiction question cannot carry. */
const probe: GoldenQuestion = {
  id: 'q-007',
  type: 'none',
  question: 'Which Medium finding did the other tenant confirm?',
  answerDocIds: [],
  userContext,
  probeDocIds: ['doc-007'],
}

describe('golden-set writers keep every field', () => {
  it('the questions under test set every field the schema defines', () => {
    expect(Object.keys({ ...everyField, ...probe }).sort()).toEqual(Object.keys(GoldenQuestionSchema.shape).sort())
    expect(GoldenQuestionSchema.parse(everyField)).toEqual(everyField)
    expect(GoldenQuestionSchema.parse(probe)).toEqual(probe)
  })

  it('goldenSetText (import, add --create) and appendQuestionText (add) write it back field for field', () => {
    const written = goldenSetText([everyField, probe], './golden-set.schema.json')
    expect(validateGoldenSet(JSON.parse(written), 'g.json', docs)).toEqual([everyField, probe])
    // The layout: the history a turn per line, the other objects inline.
    expect(written).toContain(
      [
        '      "history": [',
        '        { "role": "user", "content": "We confirmed a Medium finding on 2 March 2026." },',
        '        { "role": "assistant", "content": "Noted: a Medium finding, confirmed on 2 March 2026." }',
        '      ],',
        '      "question": "So how quickly must it be patched?",',
      ].join('\n'),
    )
    expect(written).toContain(
      '      "userContext": { "tenant": "acme", "role": "security", "permissions": ["sla:read"], "level": 2, "sso": null, "region": { "eu": true } },\n' +
        '      "provenance": { "origin": "drafted", "model": "claude-sonnet-4-5", "promptHash": "sha256:4f2a", "draftedAt": "2026-12-01T09:30:00.000Z", "reviewedBy": "ana", "reviewedAt": "2026-12-01T10:05:00.000Z" }\n',
    )
    const appended = appendQuestionText(readFileSync('fixtures/golden-lint/clean.json', 'utf8'), everyField).text
    expect(validateGoldenSet(JSON.parse(appended), 'g.json', docs).at(-1)).toEqual(everyField)
    const oneLine = appendQuestionText(
      '{"questions": [{"id": "q-001", "type": "none", "question": "A?", "answerDocIds": []}]}',
      everyField,
    )
    expect(validateGoldenSet(JSON.parse(oneLine.text), 'g.json', docs).at(-1)).toEqual(everyField)
  })

  it('golden add, appending and creating, writes a question given every field by its flags', async () => {
    const dir = temp.make('golden-writers-')
    const flags = [
      '--corpus',
      corpus,
      '--type',
      'contradiction',
      '--history',
      JSON.stringify(history),
      '--question',
      everyField.question,
      '--relevance',
      'doc-006=3, doc-005=1, doc-007=0',
      '--gold-answer',
      everyField.goldAnswer!,
      '--governing',
      'doc-006',
      '--notes',
      everyField.notes!,
      '--user-context',
      JSON.stringify(userContext),
      '--yes',
    ]
    const file = join(dir, 'golden-set.json')
    copyFileSync('fixtures/golden-lint/clean.json', file)
    // What a person types: every field but the provenance, which golden draft and golden review write.
    const { provenance: _, ...typed } = everyField
    const appended = await run('add', ['--golden', file, ...flags])
    expect(appended).toMatchObject({ code: 0, stderr: '' })
    expect(loadGoldenSet(file, docs).at(-1)).toEqual(typed)

    const created = join(dir, 'new-set.json')
    expect(await run('add', ['--golden', created, '--create', '--id', 'q-006', ...flags])).toMatchObject({ code: 0, stderr: '' })
    expect(loadGoldenSet(created, docs)).toEqual([typed])
  })

  it('golden add names a bad --history, --relevance or --user-context and writes nothing', async () => {
    const golden = ['--golden', 'fixtures/golden-lint/clean.json', '--corpus', corpus, '--type', 'single', '--question', 'Q?']
    expect((await run('add', [...golden, '--history', '[{"role": "bot", "content": "Hi"}]'])).stderr.split('\n')[0]).toBe(
      `golden add: --history '[{"role": "bot", "content": "Hi"}]': history[0].role: unknown role "bot"; expected user or assistant`,
    )
    expect((await run('add', [...golden, '--relevance', 'doc-001=5'])).stderr.split('\n')[0]).toBe(
      'golden add: --relevance doc-001=5: doc-001=5: expected a grade, an integer 0..3',
    )
    expect((await run('add', [...golden, '--relevance', 'doc-001=3,doc-404=0', '--gold-answer', 'A.', '--yes'])).stderr).toBe(
      'golden add: --relevance: not in the corpus: doc-404\n',
    )
  })

  it('golden import of 100 JSONL rows each with user_context and some with history keeps all of them', async () => {
    const dir = temp.make('golden-writers-')
    const source = join(dir, 'course.jsonl')
    const rows = Array.from({ length: 100 }, (_, i) => ({
      question: `How long is a new API key valid for customer ${i + 1}?`,
      gold_answer: 'API keys expire after 90 days by default.',
      gold_sources: ['doc-001'],
      type: 'lookup',
      user_context: { tenant: `t-${i + 1}`, role: i % 2 === 0 ? 'admin' : 'viewer' },
      ...(i % 10 === 0 ? { history: [{ role: 'user', content: `I am customer ${i + 1}.` }] } : {}),
    }))
    writeFileSync(source, rows.map((row) => JSON.stringify(row)).join('\n') + '\n')
    const out = join(dir, 'golden-set.json')
    const imported = await run('import', [source, '--format', 'jsonl', '--out', out, '--corpus', corpus])
    expect(imported).toMatchObject({ code: 0, stderr: '' })
    const questions = loadGoldenSet(out, docs)
    expect(questions.map((q) => q.userContext)).toEqual(rows.map((row) => row.user_context))
    expect(questions.map((q) => q.history)).toEqual(rows.map((row) => row.history))
  })

  it('golden review --accept-kept appends a kept draft with every field, its provenance recorded as unreviewed', async () => {
    const dir = temp.make('golden-writers-')
    const file = join(dir, 'golden-set.json')
    copyFileSync('fixtures/golden-lint/clean.json', file)
    const before = loadGoldenSet(file, docs)
    const verified = join(dir, 'verified.jsonl')
    // A line of golden verify's output: the draft as read, and its verdict.
    writeFileSync(verified, `${JSON.stringify({ ...everyField, id: 'd-001', verdict: { status: 'kept', reasons: [] } })}\n`)
    const reviewed = await run('review', [
      '--golden',
      file,
      '--corpus',
      corpus,
      '--drafts',
      verified,
      '--accept-kept',
      '--reviewer',
      'ci',
    ])
    expect(reviewed).toMatchObject({ code: 0, stderr: '' })
    const { reviewedBy: _by, reviewedAt: _at, ...drafted } = everyField.provenance!
    expect(loadGoldenSet(file, docs)).toEqual([...before, { ...everyField, provenance: { ...drafted, unreviewed: true } }])
  })

  it('golden export to JSONL carries userContext, history and provenance, and importing the export gives them back', async () => {
    const dir = temp.make('golden-writers-')
    const golden = join(dir, 'golden-set.json')
    writeFileSync(golden, appendQuestionText(readFileSync('fixtures/golden-lint/clean.json', 'utf8'), everyField).text)
    const exported = join(dir, 'gold.jsonl')
    const result = await run('export', ['--format', 'jsonl', '--out', exported, '--golden', golden, '--corpus', corpus])
    expect(result.code).toBe(0)
    expect(result.stdout.split('\n')[1]).toBe(
      'not carried by jsonl: governingDocId, notes and relevance grades (here: 2 governingDocId, 6 notes, 1 graded)',
    )
    const lines = readFileSync(exported, 'utf8').trimEnd().split('\n')
    expect(JSON.parse(lines.at(-1)!)).toEqual({
      id: 'q-006',
      question: everyField.question,
      gold_answer: everyField.goldAnswer,
      gold_sources: ['doc-006', 'doc-005'],
      type: 'contradiction',
      user_context: userContext,
      history,
      provenance: everyField.provenance,
    })
    // A hand-written question (no provenance) is exported without the field: it stays told from a drafted one.
    expect(JSON.parse(lines[0]!)).not.toHaveProperty('provenance')
    const back = join(dir, 'back.json')
    expect((await run('import', [exported, '--format', 'jsonl', '--out', back, '--corpus', corpus])).code).toBe(0)
    const again = loadGoldenSet(back, docs).at(-1)!
    expect([again.userContext, again.history, again.provenance]).toEqual([userContext, history, everyField.provenance])
    expect(loadGoldenSet(back, docs)[0]).not.toHaveProperty('provenance')

    const ragas = await run('export', [
      '--format',
      'ragas',
      '--out',
      join(dir, 'ragas.json'),
      '--golden',
      golden,
      '--corpus',
      corpus,
    ])
    expect(ragas.stdout.split('\n')[1]).toBe(
      'not carried by ragas: ids (q-001... by position), types (inferred from the answer docs: contradiction is lost), ' +
        'governingDocId, notes, userContext, history, provenance and relevance grades ' +
        '(here: 2 governingDocId, 6 notes, 1 graded, 1 userContext, 1 history, 1 provenance)',
    )
  })
})
