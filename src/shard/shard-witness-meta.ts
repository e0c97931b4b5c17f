/**
 * The key of a shard's witness in a Vitest task's meta (task.meta), the way it travels inside the blob. A module
 * of its own: the cases' worker sets it without loading the witness's schema (and zod with it).
 */
export const SHARD_WITNESS_META = 'ragEvalShardWitness'
