import { describe, expect, it } from 'vitest'
import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { toolUseReply } from '../../model-server/messages-server.ts'
import { scriptedReply } from '../../model-server/scripted-responder.ts'
import { localClient } from '../../model/testing/test-client.ts'
import { useScriptedServer } from '../../model/testing/use-scripted-server.ts'
import { lexicalClaimSupport, lexicalDisagreement } from './lexical-judgements.ts'
import { createModelVerifier } from './model-verifier.ts'
import { parseGoldenCandidates } from './read-candidates.ts'
import { duplicateOf, leakedAnswer, statusOf } from './verify-candidates.ts'

const single = (question: string, goldAnswer: string, extra: Partial<GoldenQuestion> = {}): GoldenQuestion => ({
  id: 'q-1',
  type: 'single',
  question,
  answerDocIds: ['doc-1'],
  goldAnswer,
  ...extra,
})

describe('leakedAnswer', () => {
  it('rejects an open question holding every term of its answer, and only flags a yes/no or either-or one', () => {
    expect(leakedAnswer(single('Who wrote Lumina, the song by Paul Ender?', 'Paul Ender.'))?.effect).toBe('reject')
    expect(leakedAnswer(single('Did Paul Ender write Lumina?', 'Yes, Paul Ender.'))?.effect).toBe('undecided')
    expect(leakedAnswer(single('Was Lumina written by Paul Ender or Anna Ender?', 'Paul Ender.'))?.effect).toBe('undecided')
    expect(leakedAnswer(single('Between Paul Ender and Anna Ender, which one wrote Lumina?', 'Paul Ender.'))?.effect).toBe(
      'undecided',
    )
    expect(leakedAnswer(single('Which of Paul Ender and Anna Ender wrote Lumina?', 'Paul Ender.'))?.effect).toBe('undecided')
    expect(leakedAnswer(single('Who wrote Lumina?', 'Paul Ender wrote it.'))).toBeNull()
    expect(
      leakedAnswer(single('What happens to keys after 90 days?', 'After 90 days keys expire and must be rotated.')),
    ).toBeNull()
  })
})

describe('duplicateOf', () => {
  const earlier = [{ where: 'candidate', question: single('How long is a key valid?', 'Ninety days.') }]
  it('needs the same asker and the same answer documents besides similar text', () => {
    expect(duplicateOf(single('How long is a key valid?', 'x', { id: 'q-2' }), earlier)?.message).toBe(
      'the same question as candidate q-1 ("How long is a key valid?"), with the same answer documents doc-1',
    )
    // The same text with other documents: golden:check would refuse the second, so review could not append both.
    expect(duplicateOf(single('How long is a key valid?', 'x', { id: 'q-2', answerDocIds: ['doc-2'] }), earlier)?.message).toBe(
      'the same question as candidate q-1 ("How long is a key valid?"), with other answer documents doc-1',
    )
    expect(duplicateOf(single('How long is a key valid for?', 'x', { id: 'q-2', answerDocIds: ['doc-2'] }), earlier)).toBeNull()
    expect(
      duplicateOf(single('How long is a key valid?', 'x', { id: 'q-2', userContext: { role: 'viewer' } }), earlier),
    ).toBeNull()
  })
})

describe('statusOf', () => {
  it('rejected beats undecided beats kept; notes never change it', () => {
    const r = (effect: 'reject' | 'undecided' | 'note') => ({ check: 'c', message: 'm', effect })
    expect([
      statusOf([r('note'), r('undecided'), r('reject')]),
      statusOf([r('undecided'), r('note')]),
      statusOf([r('note')]),
      statusOf([]),
    ]).toEqual(['rejected', 'undecided', 'kept', 'kept'])
  })
})

describe('lexical judgements', () => {
  const doc = { id: 'harald', text: 'Harald Vinter (born 15 June 1924 in Tromsø) was a Norwegian composer.' }
  it('claims: a year inside a date, a bare name by its facts, a wrong figure, a bare yes or a bare word', () => {
    const verdicts = lexicalClaimSupport(
      'When and where was Harald Vinter born?',
      ['1924.', 'In Tromsø.', 'Tromsø.', 'He was born in 1926.', 'Yes.'],
      [doc],
    )
    expect(verdicts.map((v) => [v.claim, v.verdict])).toEqual([
      ['1924.', 'supported'],
      ['In Tromsø.', 'supported'],
      // Its one key fact, the term "tromsø", is stated (text/key-facts.ts).
      ['Tromsø.', 'supported'],
      ['He was born in 1926.', 'unsupported'],
      ['Yes.', 'undecided'],
    ])
  })
  it('contradictions: the same figures agree, different ones disagree, none to compare is undecided', () => {
    const q = single('Until which year was the island held?', 'x', { type: 'contradiction', answerDocIds: ['a', 'b'] })
    const a = { id: 'a', text: 'The island was held until 1921.' }
    expect(lexicalDisagreement(q, [a, { id: 'b', text: 'It was held until 1921, the island.' }]).verdict).toBe('agree')
    expect(lexicalDisagreement(q, [a, { id: 'b', text: 'The island was held until 1923.' }]).verdict).toBe('disagree')
    expect(lexicalDisagreement(q, [a, { id: 'b', text: 'The island was held for a while.' }]).verdict).toBe('undecided')
  })
})

describe('parseGoldenCandidates', () => {
  it('reads JSON Lines and golden-set files; drops an earlier verdict; keeps provenance; names a bad line', () => {
    const line = JSON.stringify({
      ...single('Q?', 'A.'),
      provenance: { origin: 'drafted' },
      verdict: { status: 'kept', reasons: [] },
    })
    const [c] = parseGoldenCandidates(`${line}\n\n`, 'd.jsonl')
    expect(c).toMatchObject({ where: 'd.jsonl:1', id: 'q-1', problems: [], record: { provenance: { origin: 'drafted' } } })
    expect(c!.record).not.toHaveProperty('verdict')
    expect(parseGoldenCandidates(JSON.stringify({ questions: [single('Q?', 'A.')] }), 'g.json')[0]!.where).toBe(
      'g.json: question #1',
    )
    expect(() => parseGoldenCandidates(`${line}\n{oops\n`, 'd.jsonl')).toThrow(/^d\.jsonl:2:2: invalid JSON/)
  })
})

describe('the model verifier against the local server', () => {
  const local = useScriptedServer()
  const none: GoldenQuestion = { id: 'n-1', type: 'none', question: 'When was Merin University founded?', answerDocIds: [] }
  const passages = [{ id: 'merin#1', text: 'Merin University was founded on 12 October 1887.' }]

  it('answerability: a chunk holding the answer rejects a none question; an invalid reply twice is undecided, naming it', async () => {
    const verifier = createModelVerifier(localClient(local.server), { model: 'claude-haiku-4-5-20251001', maxTokens: 512 })
    expect(await verifier.answers(none, passages)).toEqual({
      verdict: 'answers',
      passageId: 'merin#1',
      reason: 'The chunk holds every term of the question.',
    })
    local.server.setResponder((r) =>
      (r.body.tool_choice as { name?: string }).name === 'record_answerability'
        ? toolUseReply(r, { verdict: 'answers', chunkId: 'nowhere#9', reason: 'x' })
        : scriptedReply(r),
    )
    const broken = await verifier.answers(none, passages)
    expect(broken.verdict).toBe('undecided')
    expect(broken.reason).toBe(
      'answerability judge: answers relies on "nowhere#9", which is not a chunk of the material; after one repair attempt: answers relies on "nowhere#9", which is not a chunk of the material',
    )
  })
})
