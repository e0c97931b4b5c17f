import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { loadCorpus } from './corpus.ts'
import { loadGoldenSet } from './golden-set.ts'

/**
 * The first 20 questions are the set every earlier report was measured on: changing a byte of them
 * makes those reports incomparable. The frozen copy is the pin; grow the set by appending only.
 */
describe('the golden set', () => {
  const live = readFileSync('evals/golden-set.json', 'utf8')
  it('keeps its first 20 questions byte for byte', () => {
    const frozen = readFileSync('fixtures/golden/first-20-questions.json.txt', 'utf8')
    expect(live.slice(0, frozen.length)).toBe(frozen)
    expect(frozen.match(/"id": "q-\d{3}"/g)).toHaveLength(20)
  })
  it('meets the production floors: 100+ questions, 50+ single, 20+ multi, 8+ contradiction, 8+ none, all answerable with a gold answer', () => {
    const questions = loadGoldenSet('evals/golden-set.json', loadCorpus('corpus'))
    const count = (type: string) => questions.filter((q) => q.type === type).length
    expect(questions.length).toBeGreaterThanOrEqual(100)
    expect(count('single')).toBeGreaterThanOrEqual(50)
    expect(count('multi')).toBeGreaterThanOrEqual(20)
    expect(count('contradiction')).toBeGreaterThanOrEqual(8)
    expect(count('none')).toBeGreaterThanOrEqual(8)
    expect(questions.filter((q) => q.type !== 'none' && !q.goldAnswer)).toEqual([])
    expect(questions.filter((q) => q.type === 'contradiction' && !q.governingDocId).map((q) => q.id)).toEqual([])
  })
})
