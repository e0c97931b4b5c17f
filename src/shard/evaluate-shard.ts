import type { ProjectConfig } from '../config/project-config.ts'
import type { Report } from '../contract/report-schema.ts'
import { reportOf } from '../run/assemble-report.ts'
import { measure, type EvaluateOptions } from '../run/evaluate.ts'
import type { Shard } from '../run/shard-assignment.ts'
import { writeShardFile } from './shard-file.ts'
import type { ShardWitness } from './shard-witness.ts'

/**
 * One shard of a run: writes its measurement for the merge and returns a report valid for its question cases only
 * (its summary and gate cover part of the golden set and decide nothing). The witness goes into the shard's blob.
 */
export async function evaluateShard(
  project: ProjectConfig,
  options: EvaluateOptions & { shard: Shard },
): Promise<{ report: Report; shardFile: string; witness: ShardWitness }> {
  const measurement = await measure(project, options)
  options.signal?.throwIfAborted()
  const { path, witness } = writeShardFile(project.reports, options.shard, measurement)
  return { report: reportOf(project, measurement, options.baselineRoot), shardFile: path, witness }
}
