import { describe, expect, it } from 'vitest'
import { QUESTION_TYPES, type QuestionType } from '../contract/question-types.ts'
import { assignShards, questionsOfShard } from './shard-assignment.ts'

/** 4 single, 2 multi, 1 none: the hand-worked case. */
const SMALL: { id: string; type: QuestionType }[] = [
  ...['s1', 's2', 's3', 's4'].map((id) => ({ id, type: 'single' as const })),
  ...['m1', 'm2'].map((id) => ({ id, type: 'multi' as const })),
  { id: 'n1', type: 'none' },
]

const countBy = <T>(items: readonly T[], key: (item: T) => string) =>
  items.reduce<Record<string, number>>((counts, item) => ({ ...counts, [key(item)]: (counts[key(item)] ?? 0) + 1 }), {})

describe('assignShards', () => {
  it('deals each type round-robin, carrying on across types: 4 single, 2 multi, 1 none over 3 shards', () => {
    const assignment = assignShards(SMALL, 3)
    // Singles go to shards 1, 2, 3, 1; the multis carry on at 2, 3; the none question at 1.
    const perShard = (index: number) =>
      countBy(
        SMALL.filter((q) => assignment.get(q.id) === index),
        (q) => q.type,
      )
    expect(perShard(1)).toEqual({ single: 2, none: 1 })
    expect(perShard(2)).toEqual({ single: 1, multi: 1 })
    expect(perShard(3)).toEqual({ single: 1, multi: 1 })
  })

  it('puts every question in exactly one shard, each type and the total within one of even', () => {
    const questions = Array.from({ length: 1000 }, (_, i) => ({ id: `q-${i}`, type: QUESTION_TYPES[i % 7 === 0 ? 3 : i % 3]! }))
    const shards = Array.from({ length: 7 }, (_, i) => questionsOfShard(questions, { index: i + 1, count: 7 }))
    expect(
      shards
        .flat()
        .map((q) => q.id)
        .sort(),
    ).toEqual(questions.map((q) => q.id).sort())
    for (const type of QUESTION_TYPES) {
      const counts = shards.map((shard) => shard.filter((q) => q.type === type).length)
      expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1)
    }
    const totals = shards.map((shard) => shard.length)
    expect(Math.max(...totals) - Math.min(...totals)).toBeLessThanOrEqual(1)
  })

  it('depends on the questions only, not on their order in the file', () => {
    expect(assignShards([...SMALL].reverse(), 3)).toEqual(assignShards(SMALL, 3))
  })

  it('keeps the golden-set order within a shard', () => {
    const shard = questionsOfShard(SMALL, { index: 1, count: 1 })
    expect(shard.map((q) => q.id)).toEqual(SMALL.map((q) => q.id))
  })
})
