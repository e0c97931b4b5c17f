import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { loadCorpus } from '../../load/corpus.ts'
import { loadGoldenSet } from '../../load/golden-set.ts'
import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { PLACEHOLDER_GOLD_ANSWER } from '../lint/placeholder-gold-answer.ts'
import { finishImport, type ImportResult } from './imported-question.ts'
import { exportJsonlGold, importJsonlGold } from './jsonl-gold.ts'
import { exportRagas, importRagas } from './ragas.ts'
import { exportQrels, importTrec } from './trec-qrels.ts'
import { exportTopics, parseTopics } from './trec-topics.ts'
import { failureMessage as failure } from '../../testing/failure-message.ts'

const docs = loadCorpus('fixtures/golden-lint/corpus')
/** Every type, a governing document and notes: what the formats must carry or say they cannot. */
const golden = loadGoldenSet('fixtures/golden-lint/clean.json', docs)

function finish(result: ImportResult, file: string, allowUnknown = false) {
  return finishImport(result, file, docs, { allowUnknown })
}

function pick(questions: readonly GoldenQuestion[], fields: readonly (keyof GoldenQuestion)[]) {
  return questions.map((q) => Object.fromEntries(fields.map((field) => [field, q[field]])))
}

describe('JSONL gold', () => {
  it('round-trips id, type, question, answer docs and gold answer; governingDocId and notes are not carried', () => {
    const { questions } = finish(importJsonlGold(exportJsonlGold(golden), 'gold.jsonl'), 'gold.jsonl')
    const carried = ['id', 'type', 'question', 'answerDocIds', 'goldAnswer'] as const
    expect(pick(questions, carried)).toEqual(pick(golden, carried))
    expect(questions.every((q) => q.governingDocId === undefined && q.notes === undefined)).toBe(true)
  })

  it("writes the format's type names and an empty gold_answer for a none question without one", () => {
    const lines = exportJsonlGold(golden)
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; gold_answer: string })
    expect(lines.map((l) => l.type)).toEqual(['lookup', 'lookup', 'multi-hop', 'contradiction', 'abstention'])
    expect(lines[4]!.gold_answer).toBe('')
  })

  it('assigns q-001... to records without an id, skipping ids records carry', () => {
    const text = [
      '{"question": "How long is a new API key valid?", "gold_answer": "90 days.", "gold_sources": ["doc-001"], "type": "lookup"}',
      '{"id": "q-001", "question": "Who approves a USD 8,000 credit?", "gold_answer": "The CFO.", "gold_sources": ["doc-002"], "type": "single"}',
      '{"question": "How long is the audit log kept?", "gold_answer": "", "gold_sources": [], "type": "abstention", "difficulty": "hard"}',
    ].join('\n')
    const imported = importJsonlGold(text, 'gold.jsonl')
    expect(imported.questions.map((q) => [q.id, q.type])).toEqual([
      ['q-002', 'single'],
      ['q-001', 'single'],
      ['q-003', 'none'],
    ])
    expect(imported.notices).toEqual([
      'gold.jsonl:3: field "difficulty" ignored (1 record): the JSONL gold format carries id, question, gold_answer, gold_sources, type, user_context, history, provenance',
    ])
  })

  it('names the line and field of every schema problem', () => {
    const text = [
      '{"question": "A?", "gold_answer": "a", "gold_sources": ["doc-001"], "type": "lookup"}',
      '{"question": "B?", "gold_answer": "b", "type": "lookupp", "gold_sources": "doc-001"}',
      '',
      '{"question": "", "gold_answer": "c", "gold_sources": ["doc-001"], "type": "lookup"}',
    ].join('\n')
    expect(failure(() => importJsonlGold(text, 'gold.jsonl')).split('\n')).toEqual([
      'gold.jsonl:2: field "gold_sources": Invalid input: expected array, received string',
      'gold.jsonl:2: field "type": unknown type "lookupp"; expected one of single, multi, contradiction, none (aliases: lookup, multi-hop, abstention)',
      'gold.jsonl:4: field "question": expected the question text',
    ])
    expect(failure(() => importJsonlGold('{"question": "A?",\n', 'gold.jsonl'))).toBe(
      'gold.jsonl:1:19: invalid JSON: unexpected end of the text: the object opened at 1:1 is not closed; expected one JSON object per line',
    )
    // Line 3 of the file, column 14: the single quote after `{"question": ` (13 characters).
    expect(
      failure(() =>
        importJsonlGold('{"question": "A?", "gold_sources": [], "type": "none"}\n\n{"question": \'B?\'}\n', 'gold.jsonl'),
      ),
    ).toBe(
      'gold.jsonl:3:14: invalid JSON: single-quoted string; JSON strings use double quotes; expected one JSON object per line',
    )
  })

  it('fails on unknown sources, naming each with its line; --allow-unknown drops them with a warning', () => {
    const text = [
      '{"question": "How long is a new API key valid?", "gold_answer": "90 days.", "gold_sources": ["doc-001", "doc-404"], "type": "lookup"}',
      '{"question": "Who approves a big credit?", "gold_answer": "The CFO.", "gold_sources": ["doc-002"], "type": "lookup"}',
      '{"question": "When is overage billed?", "gold_answer": "Monthly.", "gold_sources": ["doc-999"], "type": "lookup"}',
    ].join('\n')
    const imported = importJsonlGold(text, 'gold.jsonl')
    expect(failure(() => finish(imported, 'gold.jsonl')).split('\n')).toEqual([
      'gold.jsonl:1: question q-001: gold_sources[1] "doc-404" is not a document of the corpus',
      'gold.jsonl:3: question q-003: gold_sources[0] "doc-999" is not a document of the corpus',
      '2 unknown sources: correct them, add the documents to the corpus, or pass --allow-unknown to drop them',
    ])
    // Dropping q-003's only source leaves it without an answer doc: rejected, with the line.
    expect(failure(() => finish(imported, 'gold.jsonl', true))).toBe(
      'gold.jsonl:3: question q-003: every source was dropped (--allow-unknown), so it has no answer document left; it is not retyped as a none question (one the system must refuse): correct its sources or remove it',
    )
    const { questions, warnings } = finish(
      importJsonlGold(text.split('\n').slice(0, 2).join('\n'), 'gold.jsonl'),
      'gold.jsonl',
      true,
    )
    expect(questions.map((q) => q.answerDocIds)).toEqual([['doc-001'], ['doc-002']])
    expect(warnings).toEqual([
      'gold.jsonl:1: question q-001: gold_sources[1] "doc-404" is not a document of the corpus (dropped: --allow-unknown)',
    ])
  })

  it('reads user_context into userContext verbatim and writes it back; records without one have none', () => {
    const userContext = { tenant: 'acme', role: 'support', permissions: ['billing:read'], level: 2, sso: null }
    const text = [
      `{"id": "q-1", "question": "Who approves a USD 8,000 credit?", "gold_answer": "The CFO.", "gold_sources": ["doc-002"], "type": "lookup", "user_context": ${JSON.stringify(userContext)}}`,
      '{"id": "q-2", "question": "How long is a new API key valid?", "gold_answer": "90 days.", "gold_sources": ["doc-001"], "type": "lookup", "user_context": null}',
    ].join('\n')
    const { questions } = finish(importJsonlGold(text, 'gold.jsonl'), 'gold.jsonl')
    expect(questions.map((q) => q.userContext)).toEqual([userContext, undefined])
    expect('userContext' in questions[1]!).toBe(false)
    const lines = exportJsonlGold(questions)
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>)
    expect(lines.map((line) => line.user_context)).toEqual([userContext, undefined])
    expect(finish(importJsonlGold(exportJsonlGold(questions), 'again.jsonl'), 'again.jsonl').questions).toEqual(questions)
    expect(
      failure(() =>
        importJsonlGold('{"question": "A?", "gold_sources": [], "type": "none", "user_context": "admin"}', 'gold.jsonl'),
      ),
    ).toBe('gold.jsonl:1: field "user_context": expected a JSON object such as {"tenant": "acme", "role": "admin"}')
  })

  it('reads history into a follow-up question; null or [] is none; a bad turn is named with its line', () => {
    const history = [
      { role: 'user', content: 'Who approves credits?' },
      { role: 'assistant', content: 'It depends on the amount.' },
    ]
    const text = [
      `{"id": "q-1", "question": "And a USD 8,000 one?", "gold_answer": "The CFO.", "gold_sources": ["doc-002"], "type": "lookup", "history": ${JSON.stringify(history)}}`,
      '{"id": "q-2", "question": "How long is a new API key valid?", "gold_answer": "90 days.", "gold_sources": ["doc-001"], "type": "lookup", "history": []}',
      '{"id": "q-3", "question": "How long is a new API key valid now?", "gold_answer": "90 days.", "gold_sources": ["doc-001"], "type": "lookup", "history": null}',
    ].join('\n')
    const { questions } = finish(importJsonlGold(text, 'gold.jsonl'), 'gold.jsonl')
    expect(questions.map((q) => q.history)).toEqual([history, undefined, undefined])
    expect(exportJsonlGold(questions).split('\n')[0]).toBe(
      `{"id":"q-1","question":"And a USD 8,000 one?","gold_answer":"The CFO.","gold_sources":["doc-002"],"type":"lookup","history":${JSON.stringify(history)}}`,
    )
    expect(
      failure(() =>
        importJsonlGold(
          '{"question": "A?", "gold_sources": [], "type": "none"}\n{"question": "B?", "gold_sources": [], "type": "none", "history": [{"role": "human", "content": "Hi"}]}',
          'gold.jsonl',
        ),
      ),
    ).toBe('gold.jsonl:2: field "history.0.role": unknown role "human"; expected user or assistant')
  })

  it('reports duplicate ids with both lines', () => {
    const text = [
      '{"id": "q-001", "question": "A?", "gold_answer": "a", "gold_sources": ["doc-001"], "type": "lookup"}',
      '{"id": "q-001", "question": "B?", "gold_answer": "b", "gold_sources": ["doc-002"], "type": "lookup"}',
    ].join('\n')
    expect(failure(() => finish(importJsonlGold(text, 'gold.jsonl'), 'gold.jsonl'))).toBe(
      'gold.jsonl:2: question q-001: duplicate id (first used at gold.jsonl:1)',
    )
  })
})

describe('RAGAS', () => {
  const carried = ['question', 'answerDocIds', 'goldAnswer'] as const

  it('round-trips question, gold answer and answer docs (by reference_context_ids), as JSON array and as JSONL', () => {
    for (const jsonl of [false, true]) {
      const { questions } = finish(importRagas(exportRagas(golden, docs, jsonl), 'data.json', docs), 'data.json')
      expect(pick(questions, carried)).toEqual(pick(golden, carried))
    }
  })

  it('recovers answer docs from the context texts when there are no ids', () => {
    const samples = JSON.parse(exportRagas(golden, docs, false)) as Record<string, unknown>[]
    for (const sample of samples) delete sample.reference_context_ids
    const { questions } = finish(importRagas(JSON.stringify(samples, null, 2), 'data.json', docs), 'data.json')
    expect(pick(questions, carried)).toEqual(pick(golden, carried))
    // Type is inferred: ids by position, contradiction becomes multi (two answer docs).
    expect(questions.map((q) => [q.id, q.type])).toEqual([
      ['q-001', 'single'],
      ['q-002', 'single'],
      ['q-003', 'multi'],
      ['q-004', 'multi'],
      ['q-005', 'none'],
    ])
  })

  it('matches a chunk with a heading-path line, and reports contexts found in no document or in several, with their lines', () => {
    const text = JSON.stringify(
      [
        {
          user_input: 'How long is a new API key valid?',
          reference: '90 days.',
          reference_contexts: ['API Keys > Expiry\nAPI keys expire after 90   days by default.'],
        },
        {
          user_input: 'Who approves credits?',
          reference: 'The CFO.',
          reference_contexts: ['Credits above USD 5,000 need CFO approval.', 'Nobody wrote this.'],
          response: 'x',
        },
        {
          user_input: 'How fast are Medium findings patched?',
          reference: 'Within 21 days.',
          reference_contexts: ['Medium findings must be patched within'],
        },
      ],
      null,
      2,
    )
    const imported = importRagas(text, 'data.json', docs)
    expect(imported.questions.map((q) => q.sources.map((s) => s.docId))).toEqual([['doc-001'], ['doc-002'], []])
    expect(imported.notices).toEqual([
      'data.json:16: field "response" ignored (1 record): a golden set keeps the question, the reference answer and the reference contexts only',
    ])
    expect(failure(() => finish(imported, 'data.json')).split('\n')).toEqual([
      'data.json:14: question q-002: reference_contexts[1] ("Nobody wrote this.") matches no corpus document',
      'data.json:22: question q-003: reference_contexts[0] ("Medium findings must be patched within") is found in 2 documents (doc-005, doc-006): too short to tell which',
      '2 unknown sources: correct them, add the documents to the corpus, or pass --allow-unknown to drop them',
    ])
  })

  it('gives a none question without a gold answer the expected refusal as its reference, and reads it back as no gold answer', () => {
    const samples = exportRagas(golden, docs, true)
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { reference: string; reference_context_ids: string[] })
    expect(golden[4]).toMatchObject({ type: 'none', answerDocIds: [] })
    expect(golden[4]!.goldAnswer).toBeUndefined()
    expect(samples[4]).toMatchObject({
      reference: 'The provided documents do not contain the answer to this question.',
      reference_context_ids: [],
    })
    // Every row has a non-empty reference, so RAGAS's reference-based metrics can score each one.
    expect(samples.filter((sample) => sample.reference.trim() === '')).toEqual([])
    const { questions } = finish(importRagas(exportRagas(golden, docs, true), 'data.jsonl', docs), 'data.jsonl')
    expect(questions[4]).toEqual({ id: 'q-005', type: 'none', question: golden[4]!.question, answerDocIds: [] })
    // The same sentence on an answerable sample is its author's gold answer, and kept.
    const answerable = importRagas(
      '{"user_input": "A?", "reference": "The provided documents do not contain the answer to this question.", "reference_context_ids": ["doc-001"]}\n',
      'data.jsonl',
      docs,
    )
    expect(answerable.questions[0]!.goldAnswer).toBe('The provided documents do not contain the answer to this question.')
  })

  it('reads integer context ids (RAGAS types them str | int) as the document ids they spell, and names any other value', () => {
    const numbered = [...docs, { ...docs[0]!, id: '7', file: 'seven.md' }, { ...docs[1]!, id: '12', file: 'twelve.md' }]
    const text = [
      '{"user_input": "How long is a new API key valid?", "reference": "90 days.", "reference_context_ids": [7], "retrieved_context_ids": [3, "doc-001"]}',
      '{"user_input": "Who approves credits?", "reference": "The CFO.", "reference_context_ids": [12, 7]}',
    ].join('\n')
    const { questions } = finishImport(importRagas(text, 'data.jsonl', numbered), 'data.jsonl', numbered, { allowUnknown: false })
    expect(questions.map((q) => [q.id, q.type, q.answerDocIds])).toEqual([
      ['q-001', 'single', ['7']],
      ['q-002', 'multi', ['12', '7']],
    ])
    for (const [value, line] of [
      ['1.5', 2],
      ['true', 2],
      ['""', 2],
    ] as const) {
      const bad = `{"user_input": "A?", "reference_context_ids": [7]}\n{"user_input": "B?", "reference_context_ids": [${value}]}\n`
      expect(failure(() => importRagas(bad, 'data.jsonl', numbered))).toBe(
        `data.jsonl:${line}: field "reference_context_ids.0": expected a document id${value === '""' ? '' : ' (a string or an integer)'}`,
      )
    }
  })

  it('names the line of a sample missing user_input', () => {
    expect(failure(() => importRagas('{"user_input": "A?"}\n{"reference": "b"}\n', 'data.jsonl', docs))).toBe(
      'data.jsonl:2: field "user_input": missing',
    )
  })
})

describe('--allow-unknown', () => {
  it('drops unknown sources but rejects, naming each, a question left with none: it is never retyped as a none question', () => {
    const jsonl = [
      '{"question": "How long is a new API key valid?", "gold_answer": "90 days.", "gold_sources": ["doc-404"], "type": "lookup"}',
      '{"question": "Who approves a big credit?", "gold_answer": "The CFO.", "gold_sources": ["doc-002", "doc-405"], "type": "lookup"}',
      '{"question": "How long is the audit log kept?", "gold_answer": "", "gold_sources": [], "type": "abstention"}',
    ].join('\n')
    expect(failure(() => finish(importJsonlGold(jsonl, 'gold.jsonl'), 'gold.jsonl', true))).toBe(
      'gold.jsonl:1: question q-001: every source was dropped (--allow-unknown), so it has no answer document left; it is not retyped as a none question (one the system must refuse): correct its sources or remove it',
    )
    // Without the question whose only source is unknown, the rest imports: the unknown source dropped, the none question kept.
    const { questions, warnings } = finish(
      importJsonlGold(jsonl.split('\n').slice(1).join('\n'), 'gold.jsonl'),
      'gold.jsonl',
      true,
    )
    expect(questions.map((q) => [q.id, q.type, q.answerDocIds])).toEqual([
      ['q-001', 'single', ['doc-002']],
      ['q-002', 'none', []],
    ])
    expect(warnings).toEqual([
      'gold.jsonl:1: question q-001: gold_sources[1] "doc-405" is not a document of the corpus (dropped: --allow-unknown)',
    ])
    // RAGAS, whose type is inferred from what is left: a sample whose only context matches no document is rejected too.
    const ragas = [
      '{"user_input": "Who approves credits?", "reference": "The CFO.", "reference_contexts": ["Nobody wrote this."]}',
      '{"user_input": "What is the parking policy?", "reference_contexts": []}',
    ].join('\n')
    expect(failure(() => finish(importRagas(ragas, 'data.jsonl', docs), 'data.jsonl', true))).toBe(
      'data.jsonl:1: question q-001: every source was dropped (--allow-unknown), so it has no answer document left; it is not retyped as a none question (one the system must refuse): correct its sources or remove it',
    )
  })
})

describe('TREC qrels and topics', () => {
  it('round-trips ids, questions and answer docs; answerable questions get the placeholder answer', () => {
    for (const tsv of [false, true]) {
      const { questions, warnings } = finish(
        importTrec(exportQrels(golden), 'g.qrels', exportTopics(golden, tsv), tsv ? 'g.tsv' : 'g.json'),
        'g.qrels',
      )
      const carried = ['id', 'question', 'answerDocIds'] as const
      expect(pick(questions, carried)).toEqual(pick(golden, carried))
      expect(questions.map((q) => q.goldAnswer)).toEqual([
        PLACEHOLDER_GOLD_ANSWER,
        PLACEHOLDER_GOLD_ANSWER,
        PLACEHOLDER_GOLD_ANSWER,
        PLACEHOLDER_GOLD_ANSWER,
        undefined,
      ])
      expect(warnings).toEqual([
        `4 questions got the placeholder gold answer "${PLACEHOLDER_GOLD_ANSWER}" (qrels carry no answers): golden:check reports each until it is written`,
      ])
    }
  })

  it('writes qrels lines "id 0 doc 1" and leaves none questions to the topics', () => {
    expect(exportQrels(golden)).toBe(
      'q-001 0 doc-001 1\nq-002 0 doc-002 1\nq-003 0 doc-003 1\nq-003 0 doc-004 1\nq-004 0 doc-005 1\nq-004 0 doc-006 1\n',
    )
  })

  it('writes a graded question with its grades, 0 included, and imports the grades back (0 left out)', () => {
    const graded: GoldenQuestion[] = [{ ...golden[2]!, relevance: { 'doc-004': 3, 'doc-003': 1, 'doc-001': 0 } }, golden[0]!]
    expect(exportQrels(graded)).toBe('q-003 0 doc-004 3\nq-003 0 doc-003 1\nq-003 0 doc-001 0\nq-001 0 doc-001 1\n')
    const { questions } = finish(importTrec(exportQrels(graded), 'g.qrels', exportTopics(graded, true), 'g.tsv'), 'g.qrels')
    expect(questions.map((q) => [q.id, q.answerDocIds, q.relevance])).toEqual([
      ['q-003', ['doc-004', 'doc-003'], { 'doc-004': 3, 'doc-003': 1 }],
      ['q-001', ['doc-001'], undefined],
    ])
  })

  it('reads TREC <top> topics, keeps relevant judgements and their grades, and reports unknown docnos with their qrels line', () => {
    const topics =
      '<top>\n<num> Number: 301\n<title> How long is a new API key valid?\n<desc> Description:\nKey expiry.\n</top>\n\n<top>\n<num> Number: 302\n<title> Who approves credits?\n</top>\n'
    const qrels = '301 0 doc-001 2\n301 0 doc-003 0\n302 0 doc-002 1\n302 0 doc-777 1\n'
    const imported = importTrec(qrels, 'q.txt', topics, 'topics.txt')
    expect(imported.questions.map((q) => [q.id, q.question, q.where])).toEqual([
      ['301', 'How long is a new API key valid?', 'topics.txt:1'],
      ['302', 'Who approves credits?', 'topics.txt:8'],
    ])
    expect(failure(() => finish(imported, 'q.txt')).split('\n')[0]).toBe(
      'q.txt:4: question 302: docno "doc-777" is not a document of the corpus',
    )
    const { questions, warnings } = finish(imported, 'q.txt', true)
    // 301 judged doc-001 rel 2: graded; 302 judged 1 only: ungraded, as before grades.
    expect(questions.map((q) => [q.id, q.type, q.answerDocIds, q.relevance])).toEqual([
      ['301', 'single', ['doc-001'], { 'doc-001': 2 }],
      ['302', 'single', ['doc-002'], undefined],
    ])
    expect(warnings[0]).toBe('q.txt: 1 judgement with rel <= 0 not imported: a golden set lists relevant documents only')
  })

  it('names file and line of malformed qrels and topics', () => {
    const topics = '{\n  "q1": "A?",\n  "q2": ""\n}\n'
    expect(failure(() => parseTopics(topics, 't.json'))).toBe('t.json:3: topic "q2": expected the question text')
    expect(failure(() => parseTopics('q1\tA?\nq2 B?\nq3\t \n', 't.tsv'))).toBe(
      't.tsv:2: no tab between query id and question; expected "qid<TAB>question"',
    )
    expect(failure(() => parseTopics('q1\tA?\nq3\t \n', 't.tsv'))).toBe(
      't.tsv:2: expected the question text; expected "qid<TAB>question"',
    )
    expect(failure(() => parseTopics('q1\tA?\nq1\tC?\n', 't.tsv'))).toBe('t.tsv:2: query "q1" is given twice (first at t.tsv:1)')
    const good = 'q1\tA?\nq2\tB?\n'
    expect(failure(() => importTrec('q1 0 doc-001\n', 'q.txt', good, 't.tsv'))).toBe(
      'q.txt:1: expected 4 whitespace-separated fields "qid iter docno rel", found 3',
    )
    expect(failure(() => importTrec('q1 0 doc-001 yes\n', 'q.txt', good, 't.tsv'))).toBe(
      'q.txt:1: rel is not an integer (expected a relevance grade such as 0, 1, 2) (got "yes")',
    )
    expect(failure(() => importTrec('q1 0 doc-001 1\nq1 0 doc-001 1\n', 'q.txt', good, 't.tsv'))).toBe(
      'q.txt:2: docno "doc-001" is judged twice for query "q1" (first at q.txt:1)',
    )
    expect(failure(() => importTrec('q1 0 doc-001 4\n', 'q.txt', good, 't.tsv'))).toBe(
      'q.txt:1: rel 4 is above 3, the highest grade of a golden set (0..3): map the grades onto 0..3 first',
    )
    expect(failure(() => importTrec('q9 0 doc-001 1\n', 'q.txt', good, 't.tsv'))).toBe(
      'q.txt:1: query "q9" has no question in t.tsv',
    )
  })
})

describe('the fixture the round trips start from', () => {
  it('holds every type, a governing document and notes', () => {
    expect(golden.map((q) => q.type)).toEqual(['single', 'single', 'multi', 'contradiction', 'none'])
    expect(golden.some((q) => q.governingDocId !== undefined) && golden.every((q) => q.notes !== undefined)).toBe(true)
    expect(readFileSync('fixtures/golden-lint/clean.json', 'utf8')).toContain('"$schema"')
  })
})
