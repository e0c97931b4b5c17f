import type { ProjectConfig } from '../../config/project-config.ts'
import type { Report } from '../../contract/report-schema.ts'
import { reportOf } from '../../run/assemble-report.ts'
import { mergeShards } from '../merge-shards.ts'
import { readShardFiles } from '../shard-file.ts'

/** The report of a sharded run as mergedReportOfBlobs makes it, without the blobs' witnesses: the files' own checks alone. */
export function mergedReport(project: ProjectConfig, paths: readonly string[], baselineRoot: string | null): Report {
  return reportOf(project, mergeShards(readShardFiles(paths)), baselineRoot)
}
