import { createHash, randomUUID } from 'node:crypto'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { InputError } from '../contract/input-error.ts'
import { readJsonFile } from '../files/read-json-file.ts'
import { writeFileAtomic } from '../files/write-file-atomic.ts'
import { MeasurementSchema, type Measurement } from '../run/measurement.ts'
import { ShardSchema, type Shard } from '../run/shard-assignment.ts'
import type { ShardWitness } from './shard-witness.ts'

/** What a shard leaves for the merge. Not a report: summary, calibration and gate exist only for the whole golden set. */
export const ShardFileSchema = z.object({
  schemaVersion: z.literal(1),
  shard: ShardSchema,
  /** A fresh id per shard run, recorded with the file's sha256 in its blob, so the merge tells this file from a stale one. */
  runId: z.string(),
  measurement: MeasurementSchema,
})
export type ShardFile = z.infer<typeof ShardFileSchema>

const SHARD_FILE = /^shard-\d+-of-\d+\.json$/
const HINT =
  'it must be a file a shard wrote (vitest run --shard=<i>/<n> writes <reports>/shards/shard-<i>-of-<n>.json); run that shard again'

/** Where a shard's file goes under the reports folder. */
export function shardFilePath(reportsDir: string, shard: Shard): string {
  return join(reportsDir, 'shards', `shard-${shard.index}-of-${shard.count}.json`)
}

/** The sha256 (hex) of a shard file's bytes, as its blob records it. */
export function shardFileSha256(bytes: string | Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex')
}

/** Writes the shard's file; returns its path and the witness the shard's blob must carry. */
export function writeShardFile(
  reportsDir: string,
  shard: Shard,
  measurement: Measurement,
  runId: string = randomUUID(),
): { path: string; witness: ShardWitness } {
  const path = shardFilePath(reportsDir, shard)
  const file: ShardFile = { schemaVersion: 1, shard, runId, measurement }
  const text = JSON.stringify(file) + '\n'
  writeFileAtomic(path, text)
  return { path, witness: { index: shard.index, count: shard.count, runId, sha256: shardFileSha256(text) } }
}

/** A shard file as read: where from, its content, the sha256 of its bytes. */
export interface ReadShardFile {
  source: string
  file: ShardFile
  sha256: string
}

/** The shard files among `paths`: a file as it is, a folder's shard-<i>-of-<n>.json files (a folder without any is an error). */
export function readShardFiles(paths: readonly string[]): ReadShardFile[] {
  const files = paths.flatMap((path) => {
    let folder: boolean
    try {
      folder = statSync(path).isDirectory()
    } catch {
      throw new InputError(`${path}: not found; expected shard files or the folders holding them (<reports>/shards/)`)
    }
    if (!folder) return [path]
    const found = readdirSync(path)
      .filter((name) => SHARD_FILE.test(name))
      .sort()
      .map((name) => join(path, name))
    if (found.length === 0) throw new InputError(`${path}: no shard files (shard-<i>-of-<n>.json) in this folder; ${HINT}`)
    return found
  })
  return files.map((source) => {
    const file = readJsonFile(source, ShardFileSchema, HINT)
    // Hashed after a successful read: the bytes exist and are a shard file.
    return { source, file, sha256: shardFileSha256(readFileSync(source)) }
  })
}
