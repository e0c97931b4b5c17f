import { describe, expect, it } from 'vitest'
import { loadCorpus } from './corpus.ts'
import { loadGoldenSet, validateGoldenSet } from './golden-set.ts'
import { goldenSetJsonSchema } from '../contract/golden-set-schema.ts'
import { readFileSync } from 'node:fs'

const corpora = 'fixtures/corpora'
const golden = 'fixtures/golden'
const tiny = loadCorpus(`${corpora}/tiny`)

describe('loadCorpus', () => {
  it('loads documents sorted by file name with their front matter and body', () => {
    expect(tiny.map((d) => [d.id, d.title, d.updated])).toEqual([
      ['t-001', 'Trace Retention', '2026-03-01'],
      ['t-002', 'Backup Policy', '2026-03-02'],
      ['t-003', 'Office Desks', '2026-03-03'],
    ])
    expect(tiny[1]!.body).toBe(
      '# Backup Policy\n\nSnapshots of the trace store are taken every 6 hours and kept for 35 days. Restores are drilled quarterly.\n',
    )
  })
  it('rejects a missing folder', () => {
    expect(() => loadCorpus(`${corpora}/missing`)).toThrow(
      'fixtures/corpora/missing: corpus folder not found (expected a folder of Markdown documents)',
    )
  })
  it('rejects a folder without documents, naming the include globs and what was left out', () => {
    expect(() => loadCorpus(`${corpora}/no-docs`)).toThrow(
      'fixtures/corpora/no-docs: no corpus documents: no file matches include **/*.{md,mdx,markdown,txt} (1 left out: readme.html: not matched by include **/*.{md,mdx,markdown,txt})',
    )
  })
  it('names a document without a front-matter id by its path', () => {
    expect(loadCorpus(`${corpora}/no-id`).map((d) => [d.id, d.title, d.updated])).toEqual([
      ['doc', 'A document without an id', '2026-03-01'],
    ])
  })
  it('rejects duplicate ids, naming both files', () => {
    expect(() => loadCorpus(`${corpora}/duplicate-id`)).toThrow(
      'fixtures/corpora/duplicate-id/second.md: duplicate document id t-001 (already used by fixtures/corpora/duplicate-id/first.md)',
    )
  })
  it('rejects an empty document', () => {
    expect(() => loadCorpus(`${corpora}/empty-doc`)).toThrow(
      'fixtures/corpora/empty-doc/empty.md: document e-001 is empty (no text after the front matter)',
    )
  })
})

describe('loadGoldenSet', () => {
  it('loads questions and maps the aliases lookup, multi-hop, abstention to the canonical types', () => {
    const questions = loadGoldenSet(`${golden}/valid.json`, tiny)
    expect(questions.map((q) => [q.id, q.type])).toEqual([
      ['g-1', 'single'],
      ['g-2', 'multi'],
      ['g-3', 'none'],
    ])
  })
  it('reports invalid JSON with its line and column', () => {
    // The missing comma is before the "{" that opens line 4, column 5.
    expect(() => loadGoldenSet(`${golden}/broken-json.json`, tiny)).toThrow(
      /^fixtures\/golden\/broken-json\.json:4:5: invalid JSON/,
    )
  })
  it('rejects an unknown type, naming the question and the field', () => {
    expect(() => loadGoldenSet(`${golden}/unknown-type.json`, tiny)).toThrow(
      'fixtures/golden/unknown-type.json: question g-7, field "type": unknown type "lookupp"; expected one of single, multi, contradiction, none (aliases: lookup, multi-hop, abstention)',
    )
  })
  it('rejects unknown fields, a none question with answer docs and an answerable one without, all at once', () => {
    let message = ''
    try {
      loadGoldenSet(`${golden}/problems.json`, tiny)
    } catch (error) {
      message = (error as Error).message
    }
    expect(message.split('\n')).toEqual([
      'fixtures/golden/problems.json: question g-1: unknown field(s) "answer"',
      'fixtures/golden/problems.json: question g-2, field "answerDocIds": a none question has no answer documents; expected []',
      'fixtures/golden/problems.json: question g-3, field "answerDocIds": a single question needs at least one answer document',
    ])
  })
  it('rejects duplicate ids and answer docs absent from the corpus', () => {
    expect(() => loadGoldenSet(`${golden}/reference-problems.json`, tiny)).toThrow(
      [
        'fixtures/golden/reference-problems.json: question g-1, field "id": duplicate id',
        'fixtures/golden/reference-problems.json: question g-1, field "answerDocIds": t-404 is not a document of the corpus',
      ].join('\n'),
    )
  })
  it('rejects a missing file', () => {
    expect(() => loadGoldenSet(`${golden}/absent.json`, tiny)).toThrow(
      'fixtures/golden/absent.json: not found; expected the golden set here (goldenSet in rag-eval.config.ts)',
    )
  })
  it("keeps a question's userContext verbatim and rejects one that is not a JSON object", () => {
    const userContext = { tenant: 'acme', role: 'viewer', permissions: ['traces:read'], nested: { region: 'eu' } }
    const question = {
      id: 'g-1',
      type: 'single',
      question: 'How long are traces kept?',
      answerDocIds: ['t-001'],
      goldAnswer: '30 days.',
    }
    expect(validateGoldenSet({ questions: [{ ...question, userContext }] }, 'g.json', tiny)[0]!.userContext).toEqual(userContext)
    expect(() => validateGoldenSet({ questions: [{ ...question, userContext: ['viewer'] }] }, 'g.json', tiny)).toThrow(
      'g.json: question g-1, field "userContext": expected a JSON object such as {"tenant": "acme", "role": "admin"}',
    )
  })
  it("keeps a follow-up question's history in order and names each bad turn", () => {
    const question = { id: 'g-2', type: 'single', question: 'And in the EU?', answerDocIds: ['t-001'], goldAnswer: '30 days.' }
    const history = [
      { role: 'user', content: 'How long are traces kept?' },
      { role: 'assistant', content: '30 days in the US region.' },
    ]
    expect(validateGoldenSet({ questions: [{ ...question, history }] }, 'g.json', tiny)[0]!.history).toEqual(history)
    expect(() =>
      validateGoldenSet(
        {
          questions: [
            {
              ...question,
              history: [
                { role: 'bot', content: 'Hi' },
                { role: 'user', content: 'Hi', at: 3 },
              ],
            },
          ],
        },
        'g.json',
        tiny,
      ),
    ).toThrow(
      [
        'g.json: question g-2, field "history.0.role": unknown role "bot"; expected user or assistant',
        'g.json: question g-2: unknown field(s) "at"',
      ].join('\n'),
    )
    expect(() => validateGoldenSet({ questions: [{ ...question, history: [] }] }, 'g.json', tiny)).toThrow(
      'g.json: question g-2, field "history": an empty history: leave the field out for a question that follows no conversation',
    )
    expect(() => validateGoldenSet({ questions: [{ ...question, history: 'What about the EU?' }] }, 'g.json', tiny)).toThrow(
      'g.json: question g-2, field "history": expected a list of turns such as [{"role": "user", "content": "..."}, {"role": "assistant", "content": "..."}]',
    )
  })
})

describe('golden-set JSON Schema', () => {
  it('is generated from the zod schema and committed beside the golden set', () => {
    const committed: unknown = JSON.parse(readFileSync('evals/golden-set.schema.json', 'utf8'))
    expect(committed).toEqual(goldenSetJsonSchema())
  })
  it('lists the aliases among the accepted types and forbids unknown fields', () => {
    const schema = goldenSetJsonSchema() as {
      properties: { questions: { items: { properties: { type: { enum: string[] } }; additionalProperties: boolean } } }
    }
    expect(schema.properties.questions.items.properties.type.enum).toEqual([
      'single',
      'multi',
      'contradiction',
      'none',
      'lookup',
      'multi-hop',
      'abstention',
    ])
    expect(schema.properties.questions.items.additionalProperties).toBe(false)
  })
})
