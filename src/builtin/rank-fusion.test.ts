import { describe, expect, it } from 'vitest'
import { fuse } from './rank-fusion.ts'

const ids = (...names: string[]) => names.map((id) => ({ id }))

describe('fuse (reciprocal rank fusion, Cormack et al. 2009)', () => {
  it('sums 1 / (k + rank) over the rankings (hand-worked, k = 60)', () => {
    // a: 1/61 = 0.016393; b: 1/62 + 1/61 = 0.032523; c: 1/63 + 1/62 = 0.032002; d: 1/63 = 0.015873
    const fused = fuse([ids('a', 'b', 'c'), ids('b', 'c', 'd')])
    expect(fused.map(({ id }) => id)).toEqual(['b', 'c', 'a', 'd'])
    expect(fused.map(({ score }) => score)).toEqual([
      expect.closeTo(1 / 62 + 1 / 61, 15),
      expect.closeTo(1 / 63 + 1 / 62, 15),
      expect.closeTo(1 / 61, 15),
      expect.closeTo(1 / 63, 15),
    ])
  })
  it('takes k from the options: k = 0 makes rank 1 worth 1', () => {
    // k = 0: a = 1 + 1/3 = 1.3333, b = 1/2 + 1 = 1.5
    expect(fuse([ids('a', 'b'), ids('b', 'x', 'a')], { k: 0 }).map(({ id, score }) => [id, score])).toEqual([
      ['b', 1.5],
      ['a', expect.closeTo(4 / 3, 15)],
      ['x', 0.5],
    ])
  })
  it('breaks ties by first meeting, rank by rank, and counts a repeated id at its best rank', () => {
    expect(fuse([ids('a', 'b'), ids('b', 'a')]).map(({ id }) => id)).toEqual(['a', 'b'])
    expect(fuse([ids('a', 'a', 'b')]).map(({ id, score }) => [id, score])).toEqual([
      ['a', 1 / 61],
      ['b', 1 / 63],
    ])
  })
  it('keeps the item as the first ranking gave it, fuses nothing to nothing, and refuses a negative k', () => {
    const fused = fuse([[{ id: 'a', text: 'first' }], [{ id: 'a', text: 'second' }]])
    expect(fused[0]!.item.text).toBe('first')
    expect(fuse([])).toEqual([])
    expect(() => fuse([ids('a')], { k: -1 })).toThrow('fuse: expected k >= 0, got -1')
  })
})
