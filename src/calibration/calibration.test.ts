import { describe, expect, it } from 'vitest'
import type { QuestionOutcome } from '../contract/report-schema.ts'
import { judgeAgreement } from './agreement.ts'
import { cohenKappa } from './cohen-kappa.ts'
import type { HumanLabel } from './human-labels-schema.ts'
import { judgeCorrectedRates } from './judge-corrected-rates.ts'
import { kappaInterval } from './kappa-interval.ts'
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

const options = { minAgreement: 0.8, resamples: 500, seed: 1 }

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
      options,
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
    // Wilson 2/4 at 95%: centre (0.5 + z^2/8) / (1 + z^2/4) = 0.5, half-width z sqrt(1/16 + z^2/64) / (1 + z^2/4) = 0.34996101084785053.
    expect(result.agreementInterval!.low).toBeCloseTo(0.5 - 0.34996101084785053, 12)
    expect(result.agreementInterval!.high).toBeCloseTo(0.5 + 0.34996101084785053, 12)
    expect(result.kappaInterval!.method).toBe('bootstrap-percentile')
  })
  it('holds the agreement to the knob minJudgeAgreement: 4 of 5 passes at 0.8 and is advisory at the stricter 0.85', () => {
    const five = [...outcomes, outcome('e', 'single', true, [])]
    const labels = [
      label('a', 'supported'),
      label('b', 'supported'),
      label('c', 'supported'),
      label('d', 'supported'),
      label('e', 'supported'),
    ]
    expect(judgeAgreement(labels, five, options)).toMatchObject({ agreement: 0.8, advisory: false })
    expect(judgeAgreement(labels, five, { ...options, minAgreement: 0.85 })).toMatchObject({
      agreement: 0.8,
      advisory: true,
      reason: 'the judge agrees with people on 80% of 5 labelled answers, below 85%',
    })
  })
  it('leaves out labels whose answer changed, and is not advisory at full agreement', () => {
    const result = judgeAgreement(
      [label('a', 'supported'), label('b', 'unsupported'), label('c', 'supported', 'an older answer')],
      outcomes,
      options,
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
      'seed 7, 6 of 9 answered questions, strata type/retrieval/refusal/judge visited round-robin, smallest first:',
    )
  })
  it("tops a kept sample up: kept questions count as their strata's picks, the rest drawn round-robin as before", () => {
    const fresh = stratifiedSample(pool, 8, 7)
    // Keeping the first 6 of the fresh draw and topping up to 8 gives the fresh draw's picks 7 and 8.
    const grown = stratifiedSample(pool, 8, 7, fresh.ids.slice(0, 6))
    expect(new Set(grown.ids)).toEqual(new Set(fresh.ids))
    expect(grown.ids.slice(6)).toEqual(fresh.ids.slice(6))
    // A kept question in the big stratum means the draw reaches the small strata first.
    const keptS1 = stratifiedSample(pool, 7, 7, ['s1'])
    expect(keptS1.ids).toContain('s1')
    expect(keptS1.ids).toHaveLength(7)
    expect(new Set(keptS1.ids.map((id) => stratumOf(pool.find((o) => o.id === id)!))).size).toBe(6)
  })
  it('never draws more than there are answered questions', () => {
    expect(stratifiedSample(pool, 50, 1).ids).toHaveLength(9)
  })
})

describe('kappaInterval', () => {
  it('is exactly 1 to 1 for perfect agreement, 0 to 0 for a judge that never varies, and null for nothing', () => {
    const perfect = [
      ['y', 'y'],
      ['n', 'n'],
      ['y', 'y'],
      ['n', 'n'],
    ] as const
    // Every resample with both labels has kappa 1; those with one label have none and are left out.
    expect(kappaInterval(perfect, 300, 5)).toEqual({ low: 1, high: 1, method: 'bootstrap-percentile' })
    // The judge always says y: po = pe = share of y among the person's labels, so kappa is 0 in every resample that varies.
    const constant = [
      ['y', 'y'],
      ['n', 'y'],
      ['y', 'y'],
      ['n', 'y'],
    ] as const
    expect(kappaInterval(constant, 300, 5)).toEqual({ low: 0, high: 0, method: 'bootstrap-percentile' })
    expect(kappaInterval([], 300, 5)).toBeNull()
  })
  it('is reproducible for a seed and brackets the point estimate', () => {
    const pairs = [
      ...Array<['y', 'y']>(20).fill(['y', 'y']),
      ...Array<['y', 'n']>(5).fill(['y', 'n']),
      ...Array<['n', 'y']>(10).fill(['n', 'y']),
      ...Array<['n', 'n']>(15).fill(['n', 'n']),
    ]
    const interval = kappaInterval(pairs, 1000, 3)!
    expect(kappaInterval(pairs, 1000, 3)).toEqual(interval)
    expect(interval.low).toBeLessThan(0.4)
    expect(interval.high).toBeGreaterThan(0.4)
  })
})

describe('judgeCorrectedRates', () => {
  it('reports each judge-derived rate beside its prediction-powered estimate, worked by hand', () => {
    // Six answered single questions, one stratum. Judge faithfulness 1, 1, 1, 0.5, 1, 1; coverage 1, 0.5, 0, 0.5, 1, 0.5;
    // none refused (all right). Labelled: a (supported, coverage 1, refusal right), b (unsupported, 0, right), c (supported, 0.5, wrong).
    const scored = (['a', 'b', 'c', 'd', 'e', 'f'] as const).map((id, i) => ({
      ...outcome(id, 'single', true, []),
      refused: false,
      faithfulness: [1, 1, 1, 0.5, 1, 1][i]!,
      coverage: [1, 0.5, 0, 0.5, 1, 0.5][i]!,
    }))
    const labels: HumanLabel[] = [
      { ...label('a', 'supported'), refusalCorrect: true, coverage: 1 },
      { ...label('b', 'unsupported'), refusalCorrect: true, coverage: 0 },
      { ...label('c', 'supported'), refusalCorrect: false, coverage: 0.5 },
    ]
    const rates = judgeCorrectedRates(scored, labels)
    // Faithfulness: mean f 5.5/6; errors f - y: 0, 1, 0 (mean 1/3) -> 0.5833. Variance: var(f) = 0.2083/5 over 6 -> 0.006944,
    // var(errors) = 1/3 over 3 -> 0.1111, cov 0 (f constant on the labelled): half-width 1.96 * sqrt(0.1181) = 0.6734,
    // so 0.5833 -/+ 0.6734 = -0.0901 to 1.2568, clipped to [0, 1].
    expect(rates.faithfulness).toMatchObject({
      judgeMean: 0.9167,
      estimate: 0.5833,
      rectifier: 0.3333,
      interval: { low: 0, high: 1, method: 'prediction-powered' },
      questions: 6,
      labelled: 3,
      reason: null,
    })
    // Refusal correctness: the judge says right everywhere (1); errors 0, 0, 1 -> 2/3, half-width 1.96 * sqrt(1/9) = 0.6533.
    expect(rates.refusalCorrectness).toMatchObject({ judgeMean: 1, estimate: 0.6667, interval: { low: 0.0133, high: 1 } })
    // Coverage: mean f 3.5/6 = 0.5833; errors 0, 0.5, -0.5 (mean 0) -> 0.5833. var(f) 0.7083/5/6 = 0.02361, var(errors)
    // 0.25/3 = 0.08333, cov(f, errors) on the labelled = ((0.5)(0) + (0)(0.5) + (-0.5)(-0.5))/2 = 0.125 -> -2*0.125/6;
    // variance 0.065278, half-width 0.5008: 0.0826 to 1.0841, clipped.
    expect(rates.coverage).toMatchObject({
      judgeMean: 0.5833,
      estimate: 0.5833,
      rectifier: 0,
      interval: { low: 0.0826, high: 1 },
    })
  })
  it('names why a rate is not corrected when fewer than 2 current labels carry it', () => {
    const rates = judgeCorrectedRates(
      [{ ...outcome('a', 'single', true, []), faithfulness: 1, coverage: 0.5 }],
      [label('a', 'supported')],
    )
    expect(rates.coverage).toMatchObject({
      estimate: null,
      interval: null,
      reason: '0 current human label(s) carry this rate; the correction needs at least 2',
    })
  })
})
