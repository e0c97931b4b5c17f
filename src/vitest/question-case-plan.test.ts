import { describe, expect, it } from 'vitest'
import type { QuestionVerdict } from '../contract/gate-schema.ts'
import { caseNote, planQuestionCase } from './question-case-plan.ts'

const verdict = (status: QuestionVerdict['status'], baselinePassed: boolean | null, currentPassed: boolean | null): QuestionVerdict => ({
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
        notes: [{ type: 'warning', message: `lost: the baseline passed this question (not failed under gate policy ${policy}: the metrics' paired tests decide)` }],
      })
    }
    expect(planQuestionCase(verdict('regressed', true, false), false, gated, 'tolerance').kind).toBe('assert')
  })
  it('shows a known miss as an expected failure, and fails it under EVAL_STRICT=1', () => {
    expect(planQuestionCase(verdict('known-miss', false, false), false, gated).kind).toBe('expected-failure')
    expect(planQuestionCase(verdict('known-miss', false, false), false, { gate: true, strict: true }).kind).toBe('assert')
  })
  it('reports an improvement with the hint to update the baseline', () => {
    expect(planQuestionCase(verdict('improved', false, true), true, gated)).toEqual({
      kind: 'assert',
      notes: [{ type: 'notice', message: 'improvement: the baseline missed this question; accept it with `vitest run --project eval -u`' }],
    })
  })
  it('treats a question without a baseline as new: a miss is expected, a hit asserted', () => {
    expect(planQuestionCase(undefined, false, gated).kind).toBe('expected-failure')
    expect(planQuestionCase(undefined, true, gated).kind).toBe('assert')
  })
  it('asserts held questions, and questions the baseline could not decide unless they miss now', () => {
    expect(planQuestionCase(verdict('held', true, true), true, gated)).toEqual({ kind: 'assert', notes: [] })
    expect(planQuestionCase(verdict('not-gated', null, null), null, gated)).toEqual({ kind: 'assert', notes: [] })
    expect(planQuestionCase(verdict('not-gated', null, false), false, gated).kind).toBe('expected-failure')
  })
})

describe('caseNote: one annotation per question case, none for a plain pass', () => {
  const outcome = {
    id: 'q-7',
    type: 'single' as const,
    question: 'How long are refunds open?',
    answerDocIds: ['refunds'],
    context: [{ chunkId: 'refunds#0', docId: 'refunds', tokens: 40 }],
    contextTokens: 40,
    topRanked: [{ chunkId: 'refunds#0', docId: 'refunds', score: 1.5 }],
    answer: null,
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

  it('says nothing about a pass without notes', () => {
    expect(caseNote(outcome, [], true)).toBeNull()
    expect(caseNote(outcome, [], null)).toBeNull()
  })
  it('shows a miss with its evidence, and the notes above the evidence at their most severe type', () => {
    expect(caseNote(outcome, [], false)).toEqual({ type: 'notice', message: evidence })
    const notes = [
      { type: 'notice' as const, message: 'new question' },
      { type: 'warning' as const, message: 'known miss' },
    ]
    expect(caseNote(outcome, notes, false)).toEqual({ type: 'warning', message: `new question\n\nknown miss\n\n${evidence}` })
  })
  it('puts a system error first, as an error', () => {
    expect(caseNote({ ...outcome, systemError: 'HTTP 500' }, [{ type: 'notice', message: 'new question' }], true)).toEqual({
      type: 'error',
      message: `system error: HTTP 500\n\nnew question\n\n${evidence}`,
    })
  })
})
