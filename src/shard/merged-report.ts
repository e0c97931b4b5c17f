import type { ProjectConfig } from '../config/project-config.ts'
import type { Report } from '../contract/report-schema.ts'
import { reportOf } from '../run/assemble-report.ts'
import { mergeShards } from './merge-shards.ts'
import { readShardFiles } from './shard-file.ts'
import { verifyShardFiles, type BlobWitness } from './shard-witness.ts'

/**
 * The report of a sharded run after `vitest --merge-reports`, judged as one run's would be, once every shard file
 * matches its blob's witness (a stale, missing or foreign piece fails the merge, naming the shard).
 */
export function mergedReportOfBlobs(
  project: ProjectConfig,
  paths: readonly string[],
  baselineRoot: string | null,
  witnesses: readonly BlobWitness[],
): Report {
  const files = readShardFiles(paths)
  verifyShardFiles(files, witnesses)
  return reportOf(project, mergeShards(files), baselineRoot)
}
