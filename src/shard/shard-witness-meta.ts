/** The witness's key in a Vitest task's meta; a module of its own so the cases' worker need not load zod. */
export const SHARD_WITNESS_META = 'ragEvalShardWitness'
