import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadProjectConfig } from '../config/load-project-config.ts'
import { baselineFromReport } from '../gate/baseline-files.ts'
import { evaluateGate } from '../gate/gate.ts'
import { failingOn, HTTP_422, missingOn } from '../gate/testing/system-error-runs.ts'
import { reportOf } from '../run/assemble-report.ts'
import { measure } from '../run/evaluate.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { mergedQuestionFailures } from './merged-question-failures.ts'
import { evaluateShard } from './evaluate-shard.ts'
import { mergedReportOfBlobs } from './merged-report.ts'
import { mergedReport } from './testing/merged-report.ts'
import { shardFileSha256 } from './shard-file.ts'
import { SHARD_WITNESS_META } from './shard-witness-meta.ts'
import { shardWitnessesFromTasks, type BlobWitness, type ShardWitness } from './shard-witness.ts'

const temp = useTempDirs()
const repository = await loadProjectConfig()
const REMEDY =
  'merge the blobs and the <reports>/shards/ files of one run of every shard (vitest run --shard=<i>/<n> --reporter=blob writes both)'

/** Three shards of a retrieval-tier run into a temp reports folder; each witness as its blob would carry it. */
async function threeShards() {
  const project = { ...repository, reports: temp.make('shard-reports-'), baseline: temp.make('shard-baseline-') }
  const shards = []
  for (let index = 1; index <= 3; index++)
    shards.push(await evaluateShard(project, { tier: 'retrieval', shard: { index, count: 3 } }))
  const blob = (witness: ShardWitness, index: number): BlobWitness => ({ witness, source: `blob-${index}.json` })
  return { project, shards, folder: join(project.reports, 'shards'), blobs: shards.map((s, i) => blob(s.witness, i + 1)), blob }
}

describe('a merge verifies its pieces against the blobs', () => {
  it('the witness is the run id and the sha256 of the file as written; a verified merge equals the unverified one', async () => {
    const { project, shards, folder, blobs } = await threeShards()
    for (const [i, shard] of shards.entries()) {
      const text = readFileSync(shard.shardFile, 'utf8')
      expect(shard.witness).toEqual({
        index: i + 1,
        count: 3,
        runId: (JSON.parse(text) as { runId: string }).runId,
        sha256: shardFileSha256(text),
      })
    }
    expect(mergedReportOfBlobs(project, [folder], null, blobs)).toEqual(mergedReport(project, [folder], null))
  })

  it('a stale shard-3 file beside a fresh blob 3: the merge fails naming shard 3', async () => {
    const { project, shards, folder, blobs, blob } = await threeShards()
    const stale = readFileSync(shards[2]!.shardFile)
    const staleRun = (JSON.parse(stale.toString()) as { runId: string }).runId
    // Shard 3 runs again (its blob is this run's); the file of the earlier run is put back in its place.
    const fresh = await evaluateShard(project, { tier: 'retrieval', shard: { index: 3, count: 3 } })
    writeFileSync(fresh.shardFile, stale)
    expect(() => mergedReportOfBlobs(project, [folder], null, [blobs[0]!, blobs[1]!, blob(fresh.witness, 3)])).toThrow(
      `shard 3/3: ${fresh.shardFile} is not the file its blob's run wrote (file: run ${staleRun}, sha256 ${shardFileSha256(stale).slice(0, 12)}; blob blob-3.json: run ${fresh.witness.runId}, sha256 ${fresh.witness.sha256.slice(0, 12)}): a stale or foreign shard file; ${REMEDY}`,
    )
  })

  it('a missing blob with its file present, and a blob without its file: each fails naming the shard', async () => {
    const { project, shards, folder, blobs } = await threeShards()
    expect(() => mergedReportOfBlobs(project, [folder], null, blobs.slice(0, 2))).toThrow(
      `shard 3/3: ${shards[2]!.shardFile} has no blob in this merge (run ${shards[2]!.witness.runId}): its blob is missing, or the file was left by another run; ${REMEDY}`,
    )
    rmSync(shards[1]!.shardFile)
    expect(() => mergedReportOfBlobs(project, [folder], null, blobs)).toThrow(
      `shard 2/3: its blob (blob-2.json, run ${shards[1]!.witness.runId}) has no shard file among the merged files; ${REMEDY}`,
    )
    expect(() => mergedReportOfBlobs(project, [folder], null, [])).toThrow(
      `no blob of this merge carries a shard witness, so no shard file can be checked against its run; ${REMEDY}`,
    )
  })
})

describe('shardWitnessesFromTasks', () => {
  const witness: ShardWitness = { index: 2, count: 3, runId: 'r-2', sha256: 'a'.repeat(64) }
  it('finds the witness in the meta of any task of a merged file, once per file, named by the file', () => {
    const files = [
      { name: 'questions-shard-1-of-3.eval.ts', filepath: '/ci/questions-shard-1-of-3.eval.ts', meta: {}, tasks: [] },
      {
        name: 'questions-shard-2-of-3.eval.ts',
        filepath: '/ci/questions-shard-2-of-3.eval.ts',
        meta: { [SHARD_WITNESS_META]: witness },
        tasks: [{ name: 'questions', meta: {}, tasks: [{ name: 'shard measurement', meta: { [SHARD_WITNESS_META]: witness } }] }],
      },
    ]
    expect(shardWitnessesFromTasks(files)).toEqual([{ witness, source: '/ci/questions-shard-2-of-3.eval.ts' }])
  })
  it('a malformed witness names its file', () => {
    const files = [{ name: 'f.eval.ts', meta: { [SHARD_WITNESS_META]: { ...witness, sha256: 'nope' } } }]
    expect(() => shardWitnessesFromTasks(files)).toThrow('f.eval.ts: its shard witness is malformed (field "sha256": ')
  })
})

describe('mergedQuestionFailures', () => {
  it('the questions the merged view must fail: system errors always, regressions of the merged gate under GATE=1', async () => {
    const good = await measure(repository, { tier: 'retrieval', env: {} })
    const hits = good.questions.filter((q) => q.type !== 'none' && q.hit).map((q) => q.id)
    const baseline = baselineFromReport(reportOf(repository, good, null))
    const run = reportOf(repository, failingOn(missingOn(good, hits.slice(2, 4)), hits.slice(0, 2), { limit: 0.5 }), null)
    const report = { ...run, gate: evaluateGate(run, baseline, 'baseline', 0.01) }
    const order = new Map(good.questions.map((q, i) => [q.id, i]))
    const inOrder = <T extends { id: string }>(list: T[]) => list.sort((x, y) => order.get(x.id)! - order.get(y.id)!)
    const errors = hits
      .slice(0, 2)
      .map((id) => ({ id, message: `${id}: not measured: the system under test failed on it: ${HTTP_422}` }))
    const regressions = hits.slice(2, 4).map((id) => ({
      id,
      message: `${id}: regression: the baseline passed this question (the merged run's gate against baseline/, GATE=1)`,
    }))
    expect(mergedQuestionFailures(report, true)).toEqual(inOrder([...errors, ...regressions]))
    // Without GATE=1 a regression is reported, not failed (as in one run); a system error fails all the same.
    expect(mergedQuestionFailures(report, false)).toEqual(inOrder([...errors]))
    // Under gatePolicy 'significant' the metrics' paired tests decide: the lost questions are not failed.
    expect(mergedQuestionFailures({ ...report, gate: { ...report.gate, policy: 'significant' } }, true)).toEqual(
      inOrder([...errors]),
    )
    // Not compared with a baseline: the system errors only.
    expect(mergedQuestionFailures({ ...report, gate: null }, true)).toEqual(inOrder([...errors]))
  })
})
