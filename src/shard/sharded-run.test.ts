import { spawn } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadProjectConfig } from '../config/load-project-config.ts'
import type { ProjectConfig } from '../config/project-config.ts'
import { baselineFromReport, writeBaseline } from '../gate/baseline-files.ts'
import type { Baseline } from '../gate/baseline-schema.ts'
import { runFailsGate } from '../gate/run-failures.ts'
import type { Report } from '../contract/report-schema.ts'
import { renderMarkdown } from '../report/render-markdown.ts'
import { serialiseReport, writeReports } from '../report/write-report.ts'
import { evaluate } from '../run/evaluate.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { evaluateShard } from './evaluate-shard.ts'
import { shardFilePath } from './shard-file.ts'
import { mergedReport } from './testing/merged-report.ts'
import { assignShards } from '../run/shard-assignment.ts'

const temp = useTempDirs()
const repository = await loadProjectConfig()
const SHARDS = 3

/** The report as bytes, `run` (timings, the only field that may differ between two runs) left out. */
const withoutRun = (report: Report) =>
  serialiseReport({
    ...report,
    run: {
      ...report.run,
      startedAt: '',
      durationMs: 0,
      latencyMs: { system: null, retrieve: null, generate: null, judge: null },
      latencyPercentilesMs: { retrieve: null, generate: null, judge: null },
    },
  })

/**
 * A baseline in which `lostPerShard` questions of each shard, missed by today's run, were hits: a recall
 * drop spread thinly over the shards. Under gatePolicy 'significant' a shard's exact McNemar test sees
 * 2 lost questions (p = 2 * 0.5^2 = 0.5: no drop), the whole run's sees 6 (p = 2 * 0.5^6 = 0.03125 < 0.05: a drop).
 */
function baselineWithThinDrop(report: Report, lostPerShard: number): { baseline: Baseline; lost: string[] } {
  const shardOf = assignShards(report.questions, SHARDS)
  const lost = Array.from({ length: SHARDS }, (_, i) =>
    report.questions
      .filter((q) => q.type !== 'none' && !q.hit && shardOf.get(q.id) === i + 1)
      .slice(0, lostPerShard)
      .map((q) => q.id),
  ).flat()
  const baseline = baselineFromReport(report)
  const questions = baseline.questions.map((q) => (lost.includes(q.id) ? { ...q, hit: true } : q))
  return { baseline: { summary: baseline.summary, questions }, lost }
}

const significantGate = { ...process.env, EVAL_GATE_POLICY: 'significant', EVAL_ALPHA: '0.05' }
/** Today's run of the repository's project without a baseline, what each test's baseline is made from: evaluated once. */
let today: Promise<Report> | undefined

/** The repository's project with its reports and baseline in temp folders, the gate on paired significance. */
async function shardedProject(): Promise<{ project: ProjectConfig; env: NodeJS.ProcessEnv; lost: string[] }> {
  const project = { ...repository, reports: temp.make('shard-reports-'), baseline: temp.make('shard-baseline-') }
  today ??= evaluate(project, { tier: 'full', env: significantGate, baselineRoot: null })
  const { baseline, lost } = baselineWithThinDrop(await today, 2)
  writeBaseline(project.baseline, baseline)
  return { project, env: significantGate, lost }
}

describe('a run in 3 shards merges into the report of one run', () => {
  it('byte-identical but for run; the recall drop no shard sees is a regression of the merge', async () => {
    const { project, env, lost } = await shardedProject()
    expect(lost).toHaveLength(6)
    const single = await evaluate(project, { tier: 'full', env })

    const shardReports: Report[] = []
    for (let index = 1; index <= SHARDS; index++)
      shardReports.push((await evaluateShard(project, { tier: 'full', env, shard: { index, count: SHARDS } })).report)
    // 120 questions dealt by type: 40 each.
    expect(shardReports.map((r) => r.questions.length)).toEqual([40, 40, 40])
    // Each shard alone: 2 lost questions, no significant drop, its gate passes.
    for (const shard of shardReports) {
      const recall = shard.gate?.metrics.find((m) => m.name === 'recall')
      expect(recall?.status).toBe('held')
      expect(recall?.pValue).toBeCloseTo(0.5, 12)
      expect(shard.gate?.passed).toBe(true)
    }

    const merged = mergedReport(project, [join(project.reports, 'shards')], project.baseline)
    expect(withoutRun(merged)).toBe(withoutRun(single))
    expect(renderMarkdown({ ...merged, run: single.run })).toBe(renderMarkdown(single))
    const recall = merged.gate?.metrics.find((m) => m.name === 'recall')
    expect(recall?.status).toBe('regressed')
    expect(recall?.pValue).toBeCloseTo(0.03125, 12)
    expect(merged.gate?.passed).toBe(false)
    expect(runFailsGate(merged)).toBe(true)
    // The merged run: every shard's stage times, the slowest shard's wall time.
    expect(merged.run.durationMs).toBe(Math.max(...shardReports.map((r) => r.run.durationMs)))
  })

  it('a missing, repeated or foreign shard is refused, naming it', async () => {
    const project = { ...repository, reports: temp.make('shard-reports-'), baseline: temp.make('shard-baseline-') }
    const files: string[] = []
    for (let index = 1; index <= SHARDS; index++)
      files.push((await evaluateShard(project, { tier: 'retrieval', shard: { index, count: SHARDS } })).shardFile)
    expect(() => mergedReport(project, [files[0]!, files[2]!], null)).toThrow(
      `missing shard(s) 2/3: the merge needs all 3 shards of the run (got 1/3 (${files[0]}), 3/3 (${files[2]}))`,
    )
    expect(() => mergedReport(project, [...files, files[1]!], null)).toThrow(`shard 2/3 given twice: ${files[1]} and ${files[1]}`)
    const other = (
      await evaluateShard(project, {
        tier: 'retrieval',
        env: { ...process.env, EVAL_TOP_K: '5' },
        shard: { index: 2, count: SHARDS },
      })
    ).shardFile
    expect(() => mergedReport(project, [files[0]!, other, files[2]!], null)).toThrow(
      `${other}: its config differs from shard 1's (${files[0]}): the shards did not measure the same run; run every shard on one commit with one config`,
    )
  })
})

/** `vitest <args>` from the repository root, as CI runs it; resolves to the exit code and the output. */
function vitest(args: string[], env: Record<string, string>): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['node_modules/vitest/vitest.mjs', ...args], {
      env: { ...process.env, CI: '', GATE: '', EVAL_STRICT: '', FORCE_COLOR: '0', NO_COLOR: '1', ...env },
    })
    let out = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (out += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, out }))
  })
}

/** The ids of the question cases a Vitest run's output lists as failed (`FAIL  |eval| <file> > <type> questions > <id> [<type>] ...`). */
function failedQuestions(out: string): string[] {
  return [...new Set([...out.matchAll(/FAIL .*> \w+ questions > (\S+) \[/g)].map((m) => m[1]!))].sort()
}

/** Vitest's shards: two show its sharding and merge as three would (each shard has a question case file of its own). */
const VITEST_SHARDS = 2

describe('vitest --shard=i/2 --reporter=blob, then vitest --merge-reports', () => {
  it('shards do not gate; the merge writes the single run’s latest.json and latest.md, fails the cases its gate regressed and GATE=1 as it does', async () => {
    const { project, lost } = await shardedProject()
    const dir = temp.make('shard-config-')
    const config = join(dir, 'rag-eval.config.ts')
    // The repository's config, its reports and baseline in the temp folders.
    writeFileSync(
      config,
      `import base from ${JSON.stringify(join(repository.root, 'rag-eval.config.ts'))}\nexport default { ...base, corpus: ${JSON.stringify(repository.corpus!.dir)}, goldenSet: ${JSON.stringify(repository.goldenSet)}, humanLabels: ${JSON.stringify(repository.humanLabels)}, prices: ${JSON.stringify(repository.prices)}, recordingsDir: ${JSON.stringify(repository.recordingsDir)}, baseline: ${JSON.stringify(project.baseline)}, reports: ${JSON.stringify(project.reports)} }\n`,
    )
    // Under gatePolicy 'tolerance' a lost question the gate calls regressed fails its case under GATE=1.
    const env = { RAG_EVAL_CONFIG: config, EVAL_GATE_POLICY: 'tolerance', GATE: '1' }
    const blobs = temp.make('shard-blobs-')

    // The single run, in this process as the eval project's host measures it (the config file and environment of the
    // runs below, GATE aside: the cases apply it), its reports written as the host writes them. That a GATE=1 Vitest run fails
    // exactly the questions its gate calls regressed is unmeasured-runs.test.ts's; here the merge is.
    const single = await evaluate(await loadProjectConfig({ configFile: config }), {
      tier: 'full',
      env: { ...process.env, CI: '', GATE: '', EVAL_STRICT: '', EVAL_GATE_POLICY: 'tolerance' },
    })
    const singleReports = temp.make('shard-single-')
    writeReports(single, singleReports)
    const singleJson = readFileSync(join(singleReports, 'latest.json'), 'utf8')
    // The lost questions the gate calls regressions (a lost hit whose baseline answer failed a check is not one).
    const singleGate = single.gate!
    const regressed = singleGate.questions
      .filter((q) => q.status === 'regressed')
      .map((q) => q.id)
      .sort()
    expect(regressed.length).toBeGreaterThan(0)
    expect(lost).toEqual(expect.arrayContaining(regressed))
    expect(runFailsGate(single)).toBe(true)
    const singleMd = readFileSync(join(singleReports, 'latest.md'), 'utf8')

    const shards = await Promise.all(
      Array.from({ length: VITEST_SHARDS }, (_, i) =>
        vitest(
          [
            'run',
            '--project',
            'eval',
            `--shard=${i + 1}/${VITEST_SHARDS}`,
            '--reporter=blob',
            `--outputFile=${join(blobs, `blob-${i + 1}.json`)}`,
          ],
          env,
        ),
      ),
    )
    expect(shards.map((s) => s.code)).toEqual([0, 0])
    const shardOf = assignShards(single.questions, VITEST_SHARDS)
    for (const [i, shard] of shards.entries())
      expect(shard.out).toContain(
        `RAG evaluation, shard ${i + 1}/${VITEST_SHARDS}: ${single.questions.filter((q) => shardOf.get(q.id) === i + 1).length} of the golden set's questions measured`,
      )

    const merge = await vitest(['--merge-reports', blobs], env)
    expect(merge.code).toBe(1)
    // Every question's case, from the two shards' case files, and each shard's witness case.
    // The shards passed the lost questions' cases (no gate there); the merged view fails them, as the single run does.
    for (const shard of shards) expect(failedQuestions(shard.out)).toEqual([])
    expect(merge.out).toMatch(
      new RegExp(
        `Tests +${regressed.length} failed \\| \\d+ passed \\| \\d+ expected fail \\(${single.questions.length + VITEST_SHARDS}\\)`,
      ),
    )
    expect(failedQuestions(merge.out)).toEqual(regressed)
    for (const id of regressed)
      expect(merge.out).toContain(
        `${id}: regression: the baseline passed this question (the merged run's gate against ${singleGate.baseline}/, GATE=1)`,
      )
    expect(merge.out).toContain('RAG evaluation, merged from its shards')
    const strip = (json: string) => JSON.stringify({ ...JSON.parse(json), run: null })
    expect(strip(readFileSync(join(project.reports, 'latest.json'), 'utf8'))).toBe(strip(singleJson))
    expect(readFileSync(join(project.reports, 'latest.md'), 'utf8')).toBe(singleMd)

    // Shard 2 runs again (in this process: what the merge checks is the file, not who wrote it), its file replacing
    // the one shard 2's blob witnessed: the merge refuses it.
    const last = shardFilePath(project.reports, { index: VITEST_SHARDS, count: VITEST_SHARDS })
    const again = await evaluateShard(project, {
      tier: 'full',
      env: { ...process.env, EVAL_GATE_POLICY: 'tolerance' },
      shard: { index: VITEST_SHARDS, count: VITEST_SHARDS },
    })
    expect(again.shardFile).toBe(last)
    const refused = await vitest(['--merge-reports', blobs], env)
    expect(refused.code).toBe(1)
    expect(refused.out).toMatch(
      /the shards could not be merged: shard 2\/2: .* is not the file its blob's run wrote \(.*\): a stale or foreign shard file/,
    )
  })
})
