import { createHash } from 'node:crypto'
import { z } from 'zod'
import { QUESTION_TYPES, type QuestionType } from '../contract/question-types.ts'

/** One of `count` machines sharing a run (Vitest's `--shard=index/count`): index 1..count. */
export const ShardSchema = z
  .object({ index: z.number().int().min(1), count: z.number().int().min(1) })
  .refine((shard) => shard.index <= shard.count, { message: 'expected a shard index from 1 to the shard count' })
export type Shard = z.infer<typeof ShardSchema>

/** The order questions are dealt in: a hash of the id, so neighbouring ids (often one topic) spread over the shards. */
function dealingKey(id: string): string {
  return createHash('sha1').update(id).digest('hex')
}

/**
 * Which shard (1..count) evaluates each question: per type, questions sorted by id hash are dealt round-robin, carrying
 * on across types, so every shard's share of each type is within one. Depends only on the (id, type) set, never on file order.
 */
export function assignShards(questions: readonly { id: string; type: QuestionType }[], count: number): Map<string, number> {
  const assignment = new Map<string, number>()
  let dealt = 0
  for (const type of QUESTION_TYPES) {
    const ofType = questions.filter((q) => q.type === type).map((q) => ({ id: q.id, key: dealingKey(q.id) }))
    ofType.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.id < b.id ? -1 : 1))
    for (const { id } of ofType) assignment.set(id, (dealt++ % count) + 1)
  }
  return assignment
}

/** The shard's questions, in their golden-set order. */
export function questionsOfShard<Q extends { id: string; type: QuestionType }>(questions: readonly Q[], shard: Shard): Q[] {
  const assignment = assignShards(questions, shard.count)
  return questions.filter((q) => assignment.get(q.id) === shard.index)
}
