import { describe, expect, it } from 'vitest'
import type { QuestionVerdict } from '../contract/gate-schema.ts'
import { caseNote, planQuestionCase } from './question-case-plan.ts'

const verdict = (
  status: QuestionVerdict['status'],
  baselinePassed: boolean | null,
  currentPassed: boolean | null,
): QuestionVerdict => ({
  id: 'q-1',
  status,
  baselinePassed,
  currentPassed,
})
const normal = { gate: false, strict: false }
const gated = { gate: true, strict: false }

describe('planQuestionCase', () => {
  it('asserts a regression under GATE=1 and only reports it otherwise', () => {
    expect(planQuestionCase(verdict('regressed', true, false), false, gated).kind).toBe('assert')
    expect(planQuestionCase(verdict('regressed', true, false), false, normal)).toEqual({
      kind: 'report-only',
      notes: [{ type: 'error', message: 'regression: the baseline passed this question (GATE=1 fails the run on it)' }],
    })
  })
  it("reports a lost question even under GATE=1 when the gate policy is 'significant' or 'both' (the metrics' tests decide)", () => {
    for (const policy of ['significant', 'both'] as const) {
      expect(planQuestionCase(verdict('regressed', true, false), false, gated, policy)).toEqual({
        kind: 'report-only',
        notes: [
          {
            type: 'warning',
            message: `lost: the baseline passed this question (not failed under gate policy ${policy}: the metrics' paired tests decide)`,
          },
        ],
      })
    }
    expect(planQuestionCase(verdict('regressed', true, false), false, gated, 'tolerance').kind).toBe('assert')
  })
  it('shows a known miss as an expected failure without a note, and fails it under EVAL_STRICT=1', () => {
    expect(planQuestionCase(verdict('known-miss', false, false), false, gated)).toEqual({ kind: 'expected-failure', notes: [] })
    expect(planQuestionCase(verdict('known-miss', false, false), false, { gate: true, strict: true })).toEqual({
      kind: 'assert',
      notes: [{ type: 'warning', message: 'known miss: the baseline missed this question too (EVAL_STRICT=1 fails every miss)' }],
    })
  })
  it('under EVAL_STRICT=1 a failing known miss carries its evidence in its annotation (it showed none in Vitest UI)', () => {
    const plan = planQuestionCase(verdict('known-miss', false, false), false, { gate: false, strict: true })
    const outcome = {
      id: 'q-014',
      type: 'single' as const,
      question: 'Which port?',
      userContext: null,
      answerDocIds: ['doc-a'],
      governingDocId: null,
      context: [{ chunkId: 'doc-b#0', docId: 'doc-b', tokens: 120, text: '' }],
      contextTokens: 120,
      topRanked: [{ chunkId: 'doc-b#0', docId: 'doc-b', score: 1.5 }],
      answer: null,
      unsupportedClaims: null,
      systemError: null,
    }
    const note = caseNote(outcome, plan.notes, false)
    expect(note?.type).toBe('warning')
    expect(note?.message.split('\n')).toEqual([
      'known miss: the baseline missed this question too (EVAL_STRICT=1 fails every miss)',
      '',
      'question   q-014 [single] Which port?',
      'expected   doc-a',
      'context    120 tokens:',
      '  doc-b#0  120 tokens',
      'top-10 ranked (chunk, score):',
      '   1. doc-b#0  1.5000',
    ])
  })
  it('reports an improvement with the hint to update the baseline', () => {
    expect(planQuestionCase(verdict('improved', false, true), true, gated)).toEqual({
      kind: 'assert',
      notes: [
        {
          type: 'notice',
          message: 'improvement: the baseline missed this question; accept it with `npx vitest run --project eval -u`',
        },
      ],
    })
  })
  it('without a baseline: a miss is expected, a hit asserted, and no case carries a note (the baseline case says how to create one)', () => {
    expect(planQuestionCase(undefined, false, gated)).toEqual({ kind: 'expected-failure', notes: [] })
    expect(planQuestionCase(undefined, true, gated)).toEqual({ kind: 'assert', notes: [] })
    expect(planQuestionCase(undefined, false, { gate: true, strict: true })).toEqual({
      kind: 'assert',
      notes: [{ type: 'warning', message: 'miss: EVAL_STRICT=1 fails every miss' }],
    })
  })
  it('names a question the baseline does not hold as new', () => {
    expect(planQuestionCase(verdict('new', null, false), false, gated)).toEqual({
      kind: 'expected-failure',
      notes: [
        {
          type: 'warning',
          message: 'new miss: the question is not in the baseline; accept it with `npx vitest run --project eval -u`',
        },
      ],
    })
    expect(planQuestionCase(verdict('new', null, true), true, gated).kind).toBe('assert')
  })
  it('asserts held questions, and questions the baseline could not decide unless they miss now', () => {
    expect(planQuestionCase(verdict('held', true, true), true, gated)).toEqual({ kind: 'assert', notes: [] })
    expect(planQuestionCase(verdict('not-gated', null, null), null, gated)).toEqual({ kind: 'assert', notes: [] })
    expect(planQuestionCase(verdict('not-gated', null, false), false, gated).kind).toBe('expected-failure')
  })
})

describe('caseNote: one annotation per question case with something to report', () => {
  const outcome = {
    id: 'q-7',
    type: 'single' as const,
    question: 'How long are refunds open?',
    userContext: null,
    answerDocIds: ['refunds'],
    governingDocId: null,
    context: [{ chunkId: 'refunds#0', docId: 'refunds', tokens: 40 }],
    contextTokens: 40,
    topRanked: [{ chunkId: 'refunds#0', docId: 'refunds', score: 1.5 }],
    answer: null,
    unsupportedClaims: null,
    systemError: null,
  }
  const evidence = [
    'question   q-7 [single] How long are refunds open?',
    'expected   refunds',
    'context    40 tokens:',
    '  refunds#0  40 tokens',
    'top-10 ranked (chunk, score):',
    '   1. refunds#0  1.5000',
  ].join('\n')

  it('says nothing without notes: a pass, or a known miss (its expected failure says it)', () => {
    expect(caseNote(outcome, [], true)).toBeNull()
    expect(caseNote(outcome, [], false)).toBeNull()
  })
  it('shows the notes at their most severe type, with the evidence when the question missed', () => {
    const notes = [
      { type: 'notice' as const, message: 'new question' },
      { type: 'warning' as const, message: 'new miss' },
    ]
    expect(caseNote(outcome, notes, false)).toEqual({ type: 'warning', message: `new question\n\nnew miss\n\n${evidence}` })
    expect(caseNote(outcome, notes.slice(0, 1), true)).toEqual({ type: 'notice', message: 'new question' })
  })
  it('puts a system error first, as an error', () => {
    expect(caseNote({ ...outcome, systemError: 'HTTP 500' }, [{ type: 'notice', message: 'new question' }], false)).toEqual({
      type: 'error',
      message: `system error: HTTP 500\n\nnew question\n\n${evidence}`,
    })
  })
})
