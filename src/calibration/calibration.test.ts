import { describe, expect, it } from 'vitest'
import type { QuestionOutcome } from '../contract/report-schema.ts'
import { judgeAgreement } from './agreement.ts'
import { cohenKappa } from './cohen-kappa.ts'
import type { HumanLabel } from './human-labels-schema.ts'
import { stratifiedSample, stratumOf } from './stratified-sample.ts'

describe('cohenKappa', () => {
  it('matches the textbook example: po 0.7, pe 0.5 -> 0.4', () => {
    // 50 items: yes/yes 20, yes/no 5, no/yes 10, no/no 15.
    const pairs = [
      ...Array<['y', 'y']>(20).fill(['y', 'y']),
      ...Array<['y', 'n']>(5).fill(['y', 'n']),
      ...Array<['n', 'y']>(10).fill(['n', 'y']),
      ...Array<['n', 'n']>(15).fill(['n', 'n']),
    ]
    expect(cohenKappa(pairs)).toBeCloseTo(0.4, 12)
  })
  it('is 1 for perfect agreement with both labels used, null when chance agreement is total or nothing is rated', () => {
    expect(
      cohenKappa([
        ['a', 'a'],
        ['b', 'b'],
      ]),
    ).toBe(1)
    expect(
      cohenKappa([
        ['a', 'a'],
        ['a', 'a'],
      ]),
    ).toBeNull()
    expect(cohenKappa([])).toBeNull()
  })
})

const outcome = (id: string, type: QuestionOutcome['type'], hit: boolean, unsupported: string[], answer = `answer ${id}`) =>
  ({
    id,
    type,
    hit,
    refused: type === 'none' ? false : null,
    answer,
    unsupportedClaims: unsupported,
  }) as unknown as QuestionOutcome
const label = (id: string, value: HumanLabel['label'], answer = `answer ${id}`): HumanLabel => ({
  id,
  label: value,
  note: `note ${id}`,
  who: 't',
  when: '2026-11-29',
  answer,
})

describe('judgeAgreement', () => {
  const outcomes = [
    outcome('a', 'single', true, []),
    outcome('b', 'single', true, ['Made up 45 days.']),
    outcome('c', 'multi', false, []),
    outcome('d', 'none', false, []),
  ]
  it('computes raw agreement and kappa, lists the disagreements with the disputed sentences, and turns advisory below 0.8', () => {
    const result = judgeAgreement(
      [label('a', 'supported'), label('b', 'supported'), label('c', 'unsupported'), label('d', 'supported')],
      outcomes,
    )
    // judge: a supported, b unsupported, c supported, d supported -> agree on a, d: 2/4.
    expect(result.agreement).toBe(0.5)
    // human: 3 supported, 1 unsupported; judge: 3 supported, 1 unsupported -> pe = 0.75*0.75 + 0.25*0.25 = 0.625; kappa = (0.5-0.625)/0.375
    expect(result.kappa).toBeCloseTo(-1 / 3, 12)
    expect(result.disagreements).toEqual([
      { id: 'b', human: 'supported', judge: 'unsupported', disputed: ['Made up 45 days.'] },
      { id: 'c', human: 'unsupported', judge: 'supported', disputed: ['note c'] },
    ])
    expect(result.advisory).toBe(true)
  })
  it('leaves out labels whose answer changed, and is not advisory at full agreement', () => {
    const result = judgeAgreement(
      [label('a', 'supported'), label('b', 'unsupported'), label('c', 'supported', 'an older answer')],
      outcomes,
    )
    expect(result).toMatchObject({ compared: 2, stale: ['c'], agreement: 1, kappa: 1, advisory: false })
  })
})

describe('stratifiedSample', () => {
  const pool = [
    ...['s1', 's2', 's3', 's4'].map((id) => outcome(id, 'single', true, [])),
    outcome('s5', 'single', false, []),
    outcome('s6', 'single', true, ['x']),
    outcome('m1', 'multi', true, []),
    outcome('m2', 'multi', false, ['y']),
    outcome('n1', 'none', false, []),
  ]
  it('represents every stratum before any gets a second pick, reproducibly for a seed', () => {
    const first = stratifiedSample(pool, 6, 7)
    expect(new Set(first.ids.map((id) => stratumOf(pool.find((o) => o.id === id)!))).size).toBe(6)
    expect(stratifiedSample(pool, 6, 7)).toEqual(first)
    expect(first.explanation[0]).toBe(
      'seed 7, 6 of 9 answered questions, strata type/retrieval/judge visited round-robin, smallest first:',
    )
  })
  it('never draws more than there are answered questions', () => {
    expect(stratifiedSample(pool, 50, 1).ids).toHaveLength(9)
  })
})
