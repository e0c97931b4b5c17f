import { describe, expect, it } from 'vitest'
import { loadProjectConfig } from '../../config/load-project-config.ts'
import { runKnobs } from '../../config/project-config.ts'
import { loadCorpus } from '../../load/corpus.ts'
import { checkRelevantGrade, loadGoldenSet } from '../../load/golden-set.ts'
import { failureMessage as failure } from '../../testing/failure-message.ts'
import { InputError } from '../../contract/input-error.ts'
import { bestChunksOfNoneQuestions } from './best-chunks.ts'
import type { Finding } from './finding.ts'
import { lintGoldenSet } from './lint-golden-set.ts'
import { findingsOfLoaderError } from './loader-findings.ts'
import { DEFAULT_FLOORS, parseFloors, type TypeFloors } from './type-distribution.ts'

const dir = 'fixtures/golden-lint'
const docs = loadCorpus(`${dir}/corpus`)
const config = runKnobs(await loadProjectConfig(), {})
/** Floors every fixture meets, so that each test sees only the findings of its own rule. */
const LOW_FLOORS: TypeFloors = { single: 1, multi: 1, contradiction: 1, none: 1 }

/** What `pnpm golden:check` does with a fixture, minus printing. */
async function lint(name: string, floors: TypeFloors = LOW_FLOORS): Promise<Finding[]> {
  const file = `${dir}/${name}.json`
  try {
    const questions = loadGoldenSet(file, docs)
    const bestChunks = await bestChunksOfNoneQuestions(questions, docs, config)
    return lintGoldenSet({ questions, docs, bestChunks, floors })
  } catch (error) {
    if (error instanceof InputError) return findingsOfLoaderError(error.message, file)
    throw error
  }
}

const SCHEMA_FIX =
  'change the field as the message says; the $schema of the golden set (evals/golden-set.schema.json in the package) gives editors completion for every field'
const NONE_FIX =
  'ask about something the corpus almost answers: reuse the words of a near-miss document (same topic, missing fact) so that it ranks a strong distractor'

describe('golden:check rules, one broken fixture each', () => {
  it('clean: a set meeting every rule has no finding', async () => {
    expect(await lint('clean')).toEqual([])
  })

  it('invalid-json: names the file, line and column', async () => {
    const findings = await lint('invalid-json')
    expect(findings).toHaveLength(1)
    expect(findings[0]).toMatchObject({ severity: 'error', rule: 'invalid-json', questionId: null })
    expect(findings[0]!.message).toMatch(/^fixtures\/golden-lint\/invalid-json\.json:4:5: invalid JSON/)
  })

  it('schema: every problem the loader finds, by question and field', async () => {
    expect(await lint('loader-schema')).toEqual([
      { severity: 'error', rule: 'schema', questionId: 'q-001', message: 'unknown field(s) "answer"', fix: SCHEMA_FIX },
      {
        severity: 'error',
        rule: 'schema',
        questionId: 'q-002',
        message:
          'field "type": unknown type "lookupp"; expected one of single, multi, contradiction, none (aliases: lookup, multi-hop, abstention)',
        fix: SCHEMA_FIX,
      },
      {
        severity: 'error',
        rule: 'schema',
        questionId: 'q-003',
        message: 'field "answerDocIds": a single question needs at least one answer document',
        fix: SCHEMA_FIX,
      },
    ])
  })

  it("duplicate-id and unknown-doc: the loader's reference checks", async () => {
    expect(await lint('loader-references')).toEqual([
      {
        severity: 'error',
        rule: 'duplicate-id',
        questionId: 'q-001',
        message: 'field "id": duplicate id',
        fix: 'give one of the two questions a new id (rag-eval golden add suggests the next free q-NNN); never reuse the id of a deleted question',
      },
      {
        severity: 'error',
        rule: 'unknown-doc',
        questionId: 'q-001',
        message: 'field "answerDocIds": doc-404 is not a document of the corpus',
        fix: "correct the document id (corpus ids are in each document's front matter) or add the document to the corpus",
      },
    ])
  })

  it('grades: integers 0..3 agreeing with answerDocIds, a governing document not graded 0, graded documents in the corpus', async () => {
    const schema = (questionId: string, message: string) => ({
      severity: 'error',
      rule: 'schema',
      questionId,
      message,
      fix: SCHEMA_FIX,
    })
    expect(await lint('loader-grades')).toEqual([
      schema('q-001', 'field "relevance.doc-001": expected a grade, an integer 0..3 (got 4)'),
      schema('q-002', 'field "relevance.doc-002": expected a grade, an integer 0..3 (got 1.5)'),
      schema(
        'q-003',
        'field "relevance": answerDocIds lists doc-004 but relevance does not grade it: grade every answer document 1..3',
      ),
      schema('q-004', 'field "relevance.doc-006": the governing document doc-006 is graded 0 (not relevant); grade it 1..3'),
      schema(
        'q-005',
        'field "relevance.doc-007": doc-007 is graded 1 but answerDocIds does not list it: list it there, or grade it 0',
      ),
      schema('q-006', 'field "relevance.doc-002": expected a grade, an integer 0..3 (got "high")'),
    ])
    expect(await lint('loader-grade-unknown-doc')).toEqual([
      {
        severity: 'error',
        rule: 'unknown-doc',
        questionId: 'q-001',
        message: 'field "relevance": doc-999 is not a document of the corpus',
        fix: "correct the document id (corpus ids are in each document's front matter) or add the document to the corpus",
      },
    ])
    // The clean set with grades (a distractor graded 0 on the none question) has no finding.
    expect(await lint('graded')).toEqual([])
  })

  it('relevantGrade above 1: an answerable question with no document graded that high is named', () => {
    const graded = loadGoldenSet(`${dir}/graded.json`, docs)
    expect(() => checkRelevantGrade(graded, 1, 'g.json')).not.toThrow()
    expect(() => checkRelevantGrade(graded, undefined, 'g.json')).not.toThrow()
    // q-001 and q-002 are ungraded (grade 1); q-003 grades doc-003 3, q-004 doc-006 3; q-005 is a none question.
    expect(failure(() => checkRelevantGrade(graded, 2, 'g.json')).split('\n')).toEqual(
      ['q-001', 'q-002'].map(
        (id) =>
          `g.json: question ${id}: no document is graded 2 or more (relevantGrade 2), so nothing counts as relevant: grade its best document 2 or more in "relevance", or lower relevantGrade`,
      ),
    )
  })

  it('duplicate-question: the same text up to case and punctuation, and a content-term Jaccard >= 0.8', async () => {
    expect(await lint('duplicate-question')).toEqual([
      {
        severity: 'error',
        rule: 'duplicate-question',
        questionId: 'q-006',
        message: 'asks the same question as q-001: "How long is a new API key valid?"',
        fix: 'delete q-006 or q-001, keeping the one with the better gold answer',
      },
      {
        severity: 'error',
        rule: 'duplicate-question',
        questionId: 'q-007',
        message:
          'near-duplicate of q-001 ("How long is a new API key valid?"): content-term Jaccard 0.83 >= 0.8 (5 of 6 terms shared: long, new, api, kei, valid)',
        fix: 'delete one of the two, or make q-007 ask about a different fact, tier or condition than q-001',
      },
    ])
  })

  it('duplicate-question compares only questions asked in the same setting: another user or another conversation makes another question', () => {
    const base = { type: 'single' as const, answerDocIds: ['doc-001'], goldAnswer: 'API keys expire after 90 days by default.' }
    const history = (content: string) => [{ role: 'user' as const, content }]
    const questions = [
      { ...base, id: 'q-001', question: 'And for admins?', history: history('How long is a new API key valid?') },
      { ...base, id: 'q-002', question: 'And for admins?', history: history('Who approves a USD 8,000 credit?') },
      { ...base, id: 'q-003', question: 'And for admins?', history: history('How long is a new API key valid?') },
      { ...base, id: 'q-004', question: 'How long is a new API key valid?', userContext: { role: 'admin' } },
      { ...base, id: 'q-005', question: 'How long is a new API key valid?', userContext: { role: 'viewer' } },
      { ...base, id: 'q-006', question: 'How long is a new API key valid?', userContext: { role: 'admin' } },
    ]
    const findings = lintGoldenSet({ questions, docs, bestChunks: new Map(), floors: LOW_FLOORS }).filter(
      (f) => f.rule === 'duplicate-question',
    )
    expect(findings.map((f) => [f.questionId, f.message])).toEqual([
      ['q-003', 'asks the same question as q-001: "And for admins?"'],
      ['q-006', 'asks the same question as q-004: "How long is a new API key valid?"'],
    ])
  })

  it('unsupported-fact: numbers no answer doc states, naming where else they appear; numbers the question gives are exempt', async () => {
    expect(await lint('unsupported-fact')).toEqual([
      {
        severity: 'error',
        rule: 'unsupported-fact',
        questionId: 'q-001',
        message: 'goldAnswer states the number 21, found in none of its answer docs (doc-001)',
        fix: 'correct it to what doc-001 states, or, if another document is the source, add it to answerDocIds (stated in doc-006)',
      },
      {
        severity: 'error',
        rule: 'unsupported-fact',
        questionId: 'q-002',
        // "8,000" is in the question, so it needs no document; a name is no number ("Elena March" is not checked).
        message: 'goldAnswer states the number 10000, found in none of its answer docs (doc-002)',
        fix: 'correct it to what doc-002 states, or drop it: no corpus document states it',
      },
    ])
  })

  it('multi-facts-in-one-doc: one answer doc states every fact; the clean multi (a table doc + the arrears doc) passes', async () => {
    expect(await lint('multi-facts-in-one-doc')).toEqual([
      {
        severity: 'error',
        rule: 'multi-facts-in-one-doc',
        questionId: 'q-006',
        message:
          'doc-001 alone states every fact of its goldAnswer (90, 5 and 10 terms) and every distinctive term of the question and answer; doc-007 adds nothing',
        fix: 'put in the goldAnswer the fact only doc-007 states, or make it a single question with answerDocIds ["doc-001"]',
      },
    ])
  })

  it('contradiction-without-governing: an error, suggesting the answer doc that supersedes the other', async () => {
    expect(await lint('contradiction-without-governing')).toEqual([
      {
        severity: 'error',
        rule: 'contradiction-without-governing',
        questionId: 'q-004',
        message:
          'contradiction question without governingDocId: its hit accepts any answer doc, even the stale one, and contradiction handling is not scored',
        fix: 'set "governingDocId": "doc-006" (it supersedes doc-005)',
      },
    ])
  })

  it('placeholder-gold-answer: a TODO gold answer', async () => {
    expect(await lint('placeholder-gold-answer')).toEqual([
      {
        severity: 'error',
        rule: 'placeholder-gold-answer',
        questionId: 'q-001',
        message: 'goldAnswer is a placeholder: "TODO: write the gold answer from the answer documents."',
        fix: 'write the answer in one or two sentences, using only facts doc-001 states',
      },
    ])
  })

  it('none-too-easy: a warning when the best BM25 chunk shares fewer than two content terms', async () => {
    expect(await lint('none-too-easy')).toEqual([
      {
        severity: 'warning',
        rule: 'none-too-easy',
        questionId: 'q-006',
        message:
          'no chunk shares a content term with it; below 2, any system refuses it, so it measures the tokenizer, not abstention',
        fix: NONE_FIX,
      },
      {
        severity: 'warning',
        rule: 'none-too-easy',
        questionId: 'q-007',
        message:
          'its best chunk doc-002#1 shares 1 content term with it (cfo); below 2, any system refuses it, so it measures the tokenizer, not abstention',
        fix: NONE_FIX,
      },
    ])
  })

  it('type-distribution: one warning per type below its floor (defaults 50 / 20 / 8 / 8), about the whole set', async () => {
    expect(await lint('clean', DEFAULT_FLOORS)).toEqual([
      {
        severity: 'warning',
        rule: 'type-distribution',
        questionId: null,
        message: '2 single questions, below the floor of 50',
        fix: 'write 48 more single questions (docs/golden-set.md says how)',
      },
      {
        severity: 'warning',
        rule: 'type-distribution',
        questionId: null,
        message: '1 multi question, below the floor of 20',
        fix: 'write 19 more multi questions (docs/golden-set.md says how)',
      },
      {
        severity: 'warning',
        rule: 'type-distribution',
        questionId: null,
        message: '1 contradiction question, below the floor of 8',
        fix: 'write 7 more contradiction questions (docs/golden-set.md says how)',
      },
      {
        severity: 'warning',
        rule: 'type-distribution',
        questionId: null,
        message: '1 none question, below the floor of 8',
        fix: 'write 7 more none questions (docs/golden-set.md says how)',
      },
    ])
  })

  it('a question\'s notes accept a finding with "lint-ignore: <rule>"', async () => {
    expect(await lint('suppressed')).toEqual([])
  })
})

describe('parseFloors', () => {
  it('overrides the named types, accepts aliases, keeps the other defaults', () => {
    expect(parseFloors('single=10, abstention=2')).toEqual({ single: 10, multi: 20, contradiction: 8, none: 2 })
  })
  it('refuses a part that is not type=count', () => {
    const expected = 'expected type=count pairs, e.g. single=50,none=8 (types: single, multi, contradiction, none)'
    expect(() => parseFloors('single=ten')).toThrow(expected)
    expect(() => parseFloors('sngle=1')).toThrow(expected)
  })
})

describe('golden:check on known-good questions (fixtures/golden-known-good: multi-hop questions modelled on public sets)', () => {
  it('raises no finding: years inside dates and possessive names are matched', async () => {
    const knownGood = 'fixtures/golden-known-good'
    const corpus = loadCorpus(`${knownGood}/corpus`)
    const questions = loadGoldenSet(`${knownGood}/golden-set.json`, corpus)
    const bestChunks = await bestChunksOfNoneQuestions(questions, corpus, config)
    expect(lintGoldenSet({ questions, docs: corpus, bestChunks, floors: LOW_FLOORS })).toEqual([])
  })
})

describe('duplicate-question and userContext', () => {
  const base = { type: 'single' as const, answerDocIds: ['doc-001'], goldAnswer: 'API keys expire after 90 days.' }
  it('the same question asked by two different users is no duplicate; by the same user (keys in any order) it is', () => {
    const questions = [
      { ...base, id: 'q-001', question: 'How long is a key valid?', userContext: { role: 'admin', tenant: 'acme' } },
      { ...base, id: 'q-002', question: 'How long is a key valid?', userContext: { role: 'viewer', tenant: 'acme' } },
      { ...base, id: 'q-003', question: 'How long is a key valid?', userContext: { tenant: 'acme', role: 'viewer' } },
    ]
    const findings = lintGoldenSet({ questions, docs: null, bestChunks: new Map(), floors: LOW_FLOORS })
    expect(findings.filter((f) => f.rule === 'duplicate-question').map((f) => [f.questionId, f.message])).toEqual([
      ['q-003', 'asks the same question as q-002: "How long is a key valid?"'],
    ])
  })
})
