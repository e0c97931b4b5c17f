import { z } from 'zod'
import { InputError } from '../contract/input-error.ts'
import type { ReadShardFile } from './shard-file.ts'
import { SHARD_WITNESS_META } from './shard-witness-meta.ts'

/**
 * What a shard's blob vouches for: shard, run id and file sha256. A stale file, a file without its blob, or a blob
 * without its file all fail the merge, naming the shard.
 */
export const ShardWitnessSchema = z.object({
  index: z.number().int().min(1),
  count: z.number().int().min(1),
  runId: z.string(),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
})
export type ShardWitness = z.infer<typeof ShardWitnessSchema>

/** A witness and the blob's file it was found in (named in errors). */
export interface BlobWitness {
  witness: ShardWitness
  source: string
}

/** What the collector reads of Vitest's tasks (a File and its suites and tests): meta, children, the file's path. */
export interface WitnessCarrier {
  name: string
  filepath?: string
  meta?: object
  tasks?: readonly WitnessCarrier[]
}

/** The witnesses in merged Vitest files, one per task whose meta holds one; a malformed one is an error naming the file. */
export function shardWitnessesFromTasks(files: readonly WitnessCarrier[]): BlobWitness[] {
  const found: BlobWitness[] = []
  const visit = (task: WitnessCarrier, source: string) => {
    const value = (task.meta as Record<string, unknown> | undefined)?.[SHARD_WITNESS_META]
    if (value !== undefined) {
      const parsed = ShardWitnessSchema.safeParse(value)
      if (!parsed.success)
        throw new InputError(
          `${source}: its shard witness is malformed (field "${parsed.error.issues[0]!.path.join('.')}": ${parsed.error.issues[0]!.message}); run that shard again`,
        )
      found.push({ witness: parsed.data, source })
    }
    for (const child of task.tasks ?? []) visit(child, source)
  }
  for (const file of files) visit(file, file.filepath ?? file.name)
  // One witness per blob: the same one seen on several tasks of a file counts once.
  return found.filter(
    (w, i) => found.findIndex((o) => o.source === w.source && JSON.stringify(o.witness) === JSON.stringify(w.witness)) === i,
  )
}

const short = (sha256: string) => sha256.slice(0, 12)
const REMEDY = `merge the blobs and the <reports>/shards/ files of one run of every shard (vitest run --shard=<i>/<n> --reporter=blob writes both)`

/**
 * Checks shard files against the blobs' witnesses (pure); an InputError naming the shard for any missing, stale,
 * foreign or doubled piece, or when no blob carries a witness at all.
 */
export function verifyShardFiles(files: readonly ReadShardFile[], witnesses: readonly BlobWitness[]): void {
  if (witnesses.length === 0)
    throw new InputError(
      `no blob of this merge carries a shard witness, so no shard file can be checked against its run; ${REMEDY}`,
    )
  const key = (s: { index: number; count: number }) => `${s.index}/${s.count}`
  const blobs = new Map<string, BlobWitness>()
  for (const w of witnesses) {
    const other = blobs.get(key(w.witness))
    if (other && other.witness.sha256 !== w.witness.sha256)
      throw new InputError(
        `shard ${key(w.witness)}: two blobs of the merge measured it (${other.source}, run ${other.witness.runId}; ${w.source}, run ${w.witness.runId}); ${REMEDY}`,
      )
    blobs.set(key(w.witness), w)
  }
  const byShard = new Map(files.map((f) => [key(f.file.shard), f]))
  for (const f of files) {
    const blob = blobs.get(key(f.file.shard))
    if (blob === undefined)
      throw new InputError(
        `shard ${key(f.file.shard)}: ${f.source} has no blob in this merge (run ${f.file.runId}): its blob is missing, or the file was left by another run; ${REMEDY}`,
      )
    if (blob.witness.sha256 !== f.sha256)
      throw new InputError(
        `shard ${key(f.file.shard)}: ${f.source} is not the file its blob's run wrote (file: run ${f.file.runId}, sha256 ${short(f.sha256)}; blob ${blob.source}: run ${blob.witness.runId}, sha256 ${short(blob.witness.sha256)}): a stale or foreign shard file; ${REMEDY}`,
      )
  }
  for (const [shard, blob] of blobs)
    if (!byShard.has(shard))
      throw new InputError(
        `shard ${shard}: its blob (${blob.source}, run ${blob.witness.runId}) has no shard file among the merged files; ${REMEDY}`,
      )
}
