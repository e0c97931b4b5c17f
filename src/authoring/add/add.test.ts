import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { loadProjectConfig } from '../../config/load-project-config.ts'
import { runKnobs } from '../../config/project-config.ts'
import { loadCorpus } from '../../load/corpus.ts'
import { GoldenSetSchema, type GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { createBuiltinSystem } from '../../builtin/builtin-system.ts'
import { nextQuestionId, assignQuestionIds } from '../../golden/question-ids.ts'
import { appendQuestionText } from '../../golden/append/append-question.ts'
import {
  answerDocsOf,
  buildQuestion,
  checkAnswerDocs,
  checkGoverning,
  checkGradedDocs,
  checkId,
  parseHistory,
  parseRelevance,
  parseType,
  parseUserContext,
  splitDocIds,
} from './question-draft.ts'
import { previewRanking, renderRankingPreview } from './ranking-preview.ts'

const docs = loadCorpus('fixtures/golden-lint/corpus')
const added: GoldenQuestion = {
  id: 'q-006',
  type: 'single',
  question: 'Who is the CFO?',
  answerDocIds: ['doc-002'],
  goldAnswer: 'The CFO is Elena Marsh.',
}

/** The new text keeps every byte before and after the insertion point, and parses to the old questions plus the new one. */
function expectAppended(before: string, question: GoldenQuestion) {
  const { text, at, inserted } = appendQuestionText(before, question)
  expect(text.slice(0, at)).toBe(before.slice(0, at))
  expect(text.slice(at + inserted.length)).toBe(before.slice(at))
  const old = GoldenSetSchema.parse(JSON.parse(before)).questions
  expect(GoldenSetSchema.parse(JSON.parse(text)).questions).toEqual([...old, question])
  return text
}

/** The message a parser rejects `text` with. */
function errorOf(parse: () => unknown): string {
  try {
    parse()
  } catch (error) {
    return (error as Error).message
  }
  throw new Error('expected the parser to reject its input')
}

describe('appendQuestionText', () => {
  it('appends in the layout of evals/golden-set.json: one field per line, ids inline', () => {
    const before = readFileSync('fixtures/golden-lint/clean.json', 'utf8')
    const text = expectAppended(before, added)
    expect(text.slice(before.lastIndexOf('    }'))).toBe(
      [
        '    },',
        '    {',
        '      "id": "q-006",',
        '      "type": "single",',
        '      "question": "Who is the CFO?",',
        '      "answerDocIds": ["doc-002"],',
        '      "goldAnswer": "The CFO is Elena Marsh."',
        '    }',
        '  ]',
        '}',
        '',
      ].join('\n'),
    )
  })

  it('appends on one line when the questions are written one per line', () => {
    const before = readFileSync('fixtures/golden/valid.json', 'utf8')
    const text = expectAppended(before, added)
    expect(text).toContain(
      '\n    { "id": "q-006", "type": "single", "question": "Who is the CFO?", "answerDocIds": ["doc-002"], "goldAnswer": "The CFO is Elena Marsh." }\n  ]\n}',
    )
  })

  it('appends inline to a compact file, and into an empty array', () => {
    expectAppended('{"questions":[{"id":"a","type":"none","question":"Q?","answerDocIds":[]}]}', added)
    expect(appendQuestionText('{\n  "questions": []\n}\n', added).text).toBe(
      '{\n  "questions": [\n    {\n      "id": "q-006",\n      "type": "single",\n      "question": "Who is the CFO?",\n      "answerDocIds": ["doc-002"],\n      "goldAnswer": "The CFO is Elena Marsh."\n    }\n  ]\n}\n',
    )
  })

  it('is not fooled by brackets and quotes inside strings', () => {
    expectAppended(
      '{ "questions": [ { "id": "a", "type": "none", "question": "What about \\"]}\\" here?", "answerDocIds": [], "notes": "[x] {y}" } ] }',
      added,
    )
  })
})

describe('question ids', () => {
  it('suggests one past the highest q-NNN, never a gap', () => {
    expect(nextQuestionId(['q-001', 'q-003', 'custom-7'])).toBe('q-004')
    expect(nextQuestionId([])).toBe('q-001')
    expect(nextQuestionId(['q-999'])).toBe('q-1000')
  })
  it('assigns q-001... to records without an id, skipping the ones records carry', () => {
    expect(assignQuestionIds([undefined, 'q-002', undefined, 'x'])).toEqual(['q-001', 'q-002', 'q-003', 'x'])
  })
})

describe('golden:add checks', () => {
  it('checks ids, types (aliases accepted), answer docs and the governing document', () => {
    expect(checkId('q-002', ['q-001', 'q-002'])).toBe('id q-002 is taken; the next free id is q-003')
    expect(checkId('bad id', [])).toBe('id "bad id": expected an id of letters, digits, . _ -')
    expect(checkId('q-010', ['q-001'])).toBe(true)
    expect(parseType('multi-hop')).toBe('multi')
    expect(() => parseType('lookupp')).toThrow(
      'unknown type "lookupp"; expected one of single, multi, contradiction, none (aliases: lookup, multi-hop, abstention)',
    )
    expect(splitDocIds(' doc-001, doc-002,,')).toEqual(['doc-001', 'doc-002'])
    expect(checkAnswerDocs(['doc-001', 'doc-404'], 'single', docs)).toBe('not in the corpus: doc-404')
    expect(checkAnswerDocs(['doc-001'], 'multi', docs)).toBe('a multi question needs at least two answer documents')
    expect(checkAnswerDocs(['doc-001', 'doc-001'], 'multi', docs)).toBe('a document is listed twice')
    expect(checkAnswerDocs([], 'none', docs)).toBe(true)
    expect(checkGoverning('doc-003', ['doc-005', 'doc-006'])).toBe('doc-003 is not one of the answer docs (doc-005, doc-006)')
  })
  it('builds the question as the schema reads it, leaving out empty optional fields', () => {
    expect(buildQuestion({ id: 'q-006', type: 'none', question: ' Q? ', answerDocIds: [], goldAnswer: '', notes: '  ' })).toEqual(
      { id: 'q-006', type: 'none', question: 'Q?', answerDocIds: [] },
    )
  })
})

const config = runKnobs(await loadProjectConfig(), {})

describe('ranking preview', () => {
  const system = createBuiltinSystem(docs, { ...config, generate: false })

  it('shows the top chunks with scores, what the budget packs, and the hit', async () => {
    const question: GoldenQuestion = { ...added, question: 'Who has to approve a USD 8,000 credit?' }
    const preview = await previewRanking(question, system, config.budgetTokens)
    expect(preview.hit).toBe(true)
    expect(preview.rows[0]).toMatchObject({ rank: 1, chunkId: 'doc-002#1', docId: 'doc-002', inContext: true })
    const text = renderRankingPreview(preview, question)
    expect(text.split('\n').slice(0, 2)).toEqual([
      `Top ${preview.rows.length} chunks of the built-in system for q-006:`,
      'rank      chunk  score  tokens  in context  answer doc',
    ])
    expect(text).toContain('hit: yes, doc-002 is in the context')
  })

  it('says which answer doc a miss lacks, with its best rank', async () => {
    const question: GoldenQuestion = {
      ...added,
      type: 'multi',
      question: 'Who approves a credit, and who can export the audit log?',
      answerDocIds: ['doc-002', 'doc-007'],
    }
    // A budget that packs the first chunk only.
    const first = (await system.answer({ ...question, userContext: null })).ranked[0]!
    const small = createBuiltinSystem(docs, { ...config, budgetTokens: first.tokens, generate: false })
    const preview = await previewRanking(question, small, first.tokens)
    expect(preview.hit).toBe(false)
    expect(preview.contextChunks).toBe(1)
    expect(preview.verdict).toBe(`hit: NO, ${first.docId === 'doc-002' ? 'doc-007' : 'doc-002'} (best rank 2) not in the context`)
  })

  it('for a none question, names the nearest chunk and the terms it shares', async () => {
    const question: GoldenQuestion = {
      id: 'q-006',
      type: 'none',
      question: 'How long is the workspace audit log retained?',
      answerDocIds: [],
    }
    const preview = await previewRanking(question, system, config.budgetTokens)
    expect(preview.hit).toBeNull()
    expect(preview.verdict).toBe(
      'none question: the system should refuse; its nearest chunk doc-007#1 shares 3 content terms (workspac, audit, log)',
    )
  })
})

describe('the flags of graded relevance, userContext and history', () => {
  it('reads doc=grade pairs in their order, the answer docs being those graded 1 or more', () => {
    const relevance = { 'doc-006': 3, 'doc-007': 0, 'doc-005': 1 }
    expect(parseRelevance(' doc-006=3, doc-007 = 0,doc-005=1 ')).toEqual(relevance)
    expect(answerDocsOf(relevance)).toEqual(['doc-006', 'doc-005'])
    expect(checkGradedDocs({ 'doc-006': 3, 'doc-404': 0 }, docs)).toBe('not in the corpus: doc-404')
  })

  it('names what is wrong with a grading', () => {
    expect(
      ['doc-006', 'doc-006=4', 'doc-006=2.5', 'doc-006=-1', 'doc-006=3,doc-006=1', ' , '].map((text) =>
        errorOf(() => parseRelevance(text)),
      ),
    ).toEqual([
      'doc-006 has no grade: write doc-006=3 (grades 0..3)',
      'doc-006=4: expected a grade, an integer 0..3',
      'doc-006=2.5: expected a grade, an integer 0..3',
      'doc-006=-1: expected a grade, an integer 0..3',
      'doc-006 is graded twice',
      'expected doc=grade pairs such as doc-040=3,doc-012=1 (grades 0..3)',
    ])
  })

  it('reads a history and a userContext as JSON, naming a bad turn or a value that is not an object', () => {
    const turns = [
      { role: 'user', content: 'What does Pro cost?' },
      { role: 'assistant', content: 'USD 49 a month.' },
    ]
    expect(parseHistory(JSON.stringify(turns))).toEqual(turns)
    expect(errorOf(() => parseHistory('[{"role": "user", "content": "Hi"}, {"role": "bot", "content": ""}]'))).toBe(
      'history[1].role: unknown role "bot"; expected user or assistant; history[1].content: expected the text of the turn',
    )
    expect(errorOf(() => parseHistory('[]'))).toBe(
      'history: an empty history: leave the field out for a question that follows no conversation',
    )
    expect(errorOf(() => parseHistory("[{role: 'user'}]"))).toMatch(
      /^not JSON \(.+\); expected a JSON list such as \[\{"role": "user", "content": "What does Pro cost\?"\}\]$/,
    )
    expect(parseUserContext('{"role": "admin", "tenant": "acme"}')).toEqual({ role: 'admin', tenant: 'acme' })
    // A context whose own field is named "error" is a context, not a failure.
    expect(parseUserContext('{"error": "none"}')).toEqual({ error: 'none' })
    expect(errorOf(() => parseUserContext('["admin"]'))).toBe(
      'expected a JSON object such as {"tenant": "acme", "role": "admin"}',
    )
  })

  it('builds a follow-up question with its grades and userContext; grades that disagree with the answer docs are named', () => {
    const history = [{ role: 'user' as const, content: 'Who approves credits?' }]
    const built = buildQuestion({
      ...added,
      question: ' And a USD 8,000 one? ',
      relevance: { 'doc-002': 3, 'doc-007': 0 },
      userContext: { role: 'finance' },
      history,
    })
    expect(built).toEqual({
      ...added,
      history,
      question: 'And a USD 8,000 one?',
      relevance: { 'doc-002': 3, 'doc-007': 0 },
      userContext: { role: 'finance' },
    })
    expect(Object.keys(built)).toEqual([
      'id',
      'type',
      'history',
      'question',
      'answerDocIds',
      'relevance',
      'goldAnswer',
      'userContext',
    ])
    expect(buildQuestion({ ...added, relevance: { 'doc-002': 0 } })).toEqual({
      errors: [
        'relevance.doc-002: doc-002 is graded 0 (not relevant) but answerDocIds lists it: grade it 1..3, or remove it from answerDocIds',
      ],
    })
  })
})
