import { InputError } from '../contract/input-error.ts'
import { compareCalls, roundUsd } from '../model/usage-ledger.ts'
import type { Measurement } from '../run/measurement.ts'
import type { ShardFile } from './shard-file.ts'

/** Sums run facts field by field: numbers summed (USD to the millionth), arrays joined (texts once), the rest from the first. */
function sumAlike<T>(values: readonly T[]): T {
  const [first, ...rest] = values
  if (typeof first === 'number') return roundUsd(values.reduce((sum, v) => sum + (v as number), 0)) as T
  if (Array.isArray(first)) {
    const joined = values.flatMap((v) => v as unknown[])
    // Notes (texts) are said once; measurements (numbers, records) are all kept.
    return (joined.every((item) => typeof item === 'string') ? [...new Set(joined)] : joined) as T
  }
  if (typeof first === 'object' && first !== null && rest.every((v) => typeof v === 'object' && v !== null)) {
    // Every shard's keys: a pipeline stage some questions lack may be missing from a shard.
    const keys = [...new Set(values.flatMap((v) => Object.keys(v as object)))]
    return Object.fromEntries(
      keys.map((key) => [
        key,
        sumAlike(values.map((v) => (v as Record<string, unknown>)[key]).filter((value) => value !== undefined)),
      ]),
    ) as T
  }
  return first as T
}

/** The fields every shard must have measured alike: what was run on which inputs. */
const SAME_IN_EVERY_SHARD = ['tier', 'config', 'corpus', 'inputs', 'goldenSetIds', 'judge'] as const

/**
 * The whole run's measurement from its shards (pure): checks they are the n shards of one run and cover every
 * question exactly once, restores golden-set order; the run took as long as its slowest shard.
 */
export function mergeShards(shards: readonly { source: string; file: ShardFile }[]): Measurement {
  if (shards.length === 0)
    throw new InputError('no shard files to merge; expected the files of every shard (<reports>/shards/shard-<i>-of-<n>.json)')
  const count = shards[0]!.file.shard.count
  const bySource = (s: { source: string; file: ShardFile }) => `${s.file.shard.index}/${s.file.shard.count} (${s.source})`
  const otherCount = shards.find((s) => s.file.shard.count !== count)
  if (otherCount)
    throw new InputError(
      `shards of different runs: ${bySource(shards[0]!)} and ${bySource(otherCount)}; expected the ${count} shards of one run`,
    )
  const byIndex = new Map<number, string>()
  for (const s of shards) {
    const seen = byIndex.get(s.file.shard.index)
    if (seen !== undefined) throw new InputError(`shard ${s.file.shard.index}/${count} given twice: ${seen} and ${s.source}`)
    byIndex.set(s.file.shard.index, s.source)
  }
  const missing = Array.from({ length: count }, (_, i) => i + 1).filter((index) => !byIndex.has(index))
  if (missing.length > 0)
    throw new InputError(
      `missing shard(s) ${missing.map((i) => `${i}/${count}`).join(', ')}: ` +
        `the merge needs all ${count} shards of the run (got ${shards.map(bySource).join(', ')})`,
    )

  const ordered = [...shards].sort((a, b) => a.file.shard.index - b.file.shard.index)
  const first = ordered[0]!.file.measurement
  for (const { source, file } of ordered.slice(1)) {
    for (const field of SAME_IN_EVERY_SHARD) {
      if (JSON.stringify(file.measurement[field]) !== JSON.stringify(first[field])) {
        throw new InputError(
          `${source}: its ${field} differs from shard 1's (${ordered[0]!.source}): ` +
            `the shards did not measure the same run; run every shard on one commit with one config`,
        )
      }
    }
  }

  const measuredBy = new Map<string, string>()
  for (const { source, file } of ordered) {
    for (const q of file.measurement.questions) {
      const other = measuredBy.get(q.id)
      if (other !== undefined) throw new InputError(`question ${q.id} was measured by two shards: ${other} and ${source}`)
      measuredBy.set(q.id, source)
    }
  }
  const unmeasured = first.goldenSetIds.filter((id) => !measuredBy.has(id))
  if (unmeasured.length > 0)
    throw new InputError(
      `no shard measured ${unmeasured.length} question(s) ` +
        `of the golden set: ${unmeasured.slice(0, 10).join(', ')}${unmeasured.length > 10 ? ', ...' : ''}`,
    )
  const known = new Set(first.goldenSetIds)
  const unknown = [...measuredBy.keys()].filter((id) => !known.has(id))
  if (unknown.length > 0)
    throw new InputError(
      `${measuredBy.get(unknown[0]!)}: measured question(s) not in the golden set: ${unknown.slice(0, 10).join(', ')}`,
    )

  const outcomes = new Map(ordered.flatMap(({ file }) => file.measurement.questions.map((q) => [q.id, q] as const)))
  const measurements = ordered.map(({ file }) => file.measurement)
  const runs = measurements.map((m) => m.run)
  const estimates = runs.map((r) => r.estimate)
  return {
    ...first,
    questions: first.goldenSetIds.map((id) => outcomes.get(id)!),
    scripted: measurements.some((m) => m.scripted),
    warnings: [...new Set(measurements.flatMap((m) => m.warnings))],
    questionWarnings: measurements.flatMap((m) => m.questionWarnings),
    run: {
      startedAt: runs.map((r) => r.startedAt).sort()[0]!,
      durationMs: Math.max(...runs.map((r) => r.durationMs)),
      stageMs: sumAlike(runs.map((r) => r.stageMs)),
      questionCosts: runs.flatMap((r) => r.questionCosts),
      usage: sumAlike(runs.map((r) => r.usage)),
      modelCalls: runs.flatMap((r) => r.modelCalls).sort(compareCalls),
      estimate: estimates.every((e) => e !== null) ? sumAlike(estimates) : null,
      batches: runs.flatMap((r) => r.batches),
    },
  }
}
