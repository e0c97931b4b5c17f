import type { ProjectConfig } from '../config/project-config.ts'
import type { Report } from '../contract/report-schema.ts'
import { reportOf } from '../run/assemble-report.ts'
import { measure, type EvaluateOptions } from '../run/evaluate.ts'
import type { Shard } from '../run/shard-assignment.ts'
import { writeShardFile } from './shard-file.ts'
import type { ShardWitness } from './shard-witness.ts'

/**
 * One shard of a run: measures the shard's questions and writes its measurement to
 * <reports>/shards/shard-<i>-of-<n>.json for the merge. Returns the shard's own report, for its question
 * cases only (each question's verdict against the baseline holds); its summary and gate cover a part of the
 * golden set and decide nothing. No latest.json is written: the merge writes the run's. The witness is what
 * the shard's blob must carry (task meta SHARD_WITNESS_META) for the merge to accept the file.
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
