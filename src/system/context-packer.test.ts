import { describe, expect, it } from 'vitest'
import { packContext } from './context-packer.ts'

const chunks = (...sizes: number[]) => sizes.map((tokens, i) => ({ id: i, tokens }))

describe('packContext', () => {
  it('packs in rank order up to the budget, inclusive', () => {
    expect(packContext(chunks(200, 300, 100, 50), 600).map((c) => c.id)).toEqual([0, 1, 2])
  })
  it('stops at the first chunk that does not fit instead of pulling a smaller one forward', () => {
    expect(packContext(chunks(200, 500, 100), 600).map((c) => c.id)).toEqual([0])
  })
  it('gives an empty context when the first chunk exceeds the budget', () => {
    expect(packContext(chunks(700, 10), 600)).toEqual([])
  })
  it('gives an empty context for an empty ranking', () => {
    expect(packContext([], 600)).toEqual([])
  })
})
