import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { RecordingMetadataSchema } from '../model/recording.ts'
import {
  comparable as withoutRun,
  filesUnder,
  readReport,
  runEvalCli,
  tempDir as temp,
  textOf,
  tinyProject,
} from '../model/testing/eval-child.ts'
import { startMessagesServer, toolUseReply } from '../model-server/messages-server.ts'
import { scriptedReply } from '../model-server/scripted-responder.ts'
import { TEST_API_KEY } from '../model/testing/test-client.ts'
import { evaluate } from './evaluate.ts'
import { useScriptedServer } from '../model/testing/use-scripted-server.ts'
import { ragEvalArgv } from '../testing/rag-eval-bin.ts'

// The model modes end to end through `pnpm eval:cli` (in-process, or the bin where a process is what is tested),
// the real SDK and the local Messages API server with a dummy key.

const local = useScriptedServer()

const liveEnv = (extra: Record<string, string> = {}): Record<string, string> => ({
  EVAL_MODE: 'live',
  ANTHROPIC_API_KEY: TEST_API_KEY,
  ANTHROPIC_BASE_URL: local.server.url,
  ...extra,
})
const brokenFaithfulness = () =>
  local.server.setResponder((r) =>
    (r.body.tool_choice as { name?: string } | undefined)?.name === 'record_faithfulness'
      ? toolUseReply(r, { verdicts: 'fine' })
      : scriptedReply(r),
  )

describe('the live path end to end against the local server (pnpm eval:cli, the SDK, a dummy key)', () => {
  // A set of every type with more calls than the concurrency allows at once: the repository's 120 questions
  // proved nothing more, in 400 calls and two evaluations of its corpus.
  const KNOWN_GOOD = ['--corpus', 'fixtures/golden-known-good/corpus', '--golden', 'fixtures/golden-known-good/golden-set.json']

  it('answers and judges every golden question (16 of all four types); an unchanged rerun makes zero API calls', async () => {
    const out = temp('reports-')
    const env = liveEnv({ EVAL_CACHE_DIR: temp('model-cache-'), EVAL_CONCURRENCY: '8' })
    const first = await runEvalCli([...KNOWN_GOOD, '--out', out, '--baseline', ''], env)
    expect(first.stderr).toBe('')
    expect(first.code).toBe(0)
    const report = readReport(out)
    const sent = local.server.requests.length
    expect(report.config.mode).toBe('live')
    expect(report.summary.judge).toBe('model:claude-haiku-4-5-20251001')
    expect(report.summary.judgeErrors).toBe(0)
    expect(report.questions.map((q) => q.type).sort()).toEqual(
      [...Array(2).fill('none'), 'contradiction', ...Array(8).fill('multi'), ...Array(5).fill('single')].sort(),
    )
    expect(report.run.usage).toMatchObject({ calls: sent, cacheHits: 0, retries: 0 })
    expect(report.run.usage.byRole.generator.calls).toBe(report.questions.length)
    expect(report.run.usage.usd).toBeGreaterThan(0)
    expect(report.run.latencyMs.generate).not.toBeNull()
    expect(report.run.latencyMs.judge).not.toBeNull()
    // More calls than may be in flight at once: the limit held them back.
    expect(sent).toBeGreaterThan(8)
    expect(local.server.maxInFlight).toBeLessThanOrEqual(8)
    // Usage per call: every call of the run, with its question, tokens, cost and latency.
    expect(report.run.modelCalls).toHaveLength(sent)
    expect(report.run.modelCalls.filter((c) => c.purpose === 'generate').map((c) => c.subject)).toEqual(
      report.questions.map((q) => q.id).sort(),
    )
    for (const call of report.run.modelCalls) {
      expect(call).toMatchObject({ source: 'api', retries: 0 })
      expect(call.inputTokens).toBeGreaterThan(0)
      expect(call.latencyMs).toBeGreaterThan(0)
    }
    expect(report.run.modelCalls.reduce((sum, c) => sum + c.usd, 0)).toBeCloseTo(report.run.usage.usd, 4)
    expect(first.stdout).toMatch(/model calls: \d+ to the API \(generator \d+, judge \d+\), 0 from the cache, 0 retries/)

    const again = await runEvalCli([...KNOWN_GOOD, '--out', out, '--baseline', ''], env)
    expect(again.code).toBe(0)
    const rerun = readReport(out)
    expect(local.server.requests).toHaveLength(sent)
    expect(rerun.run.usage).toMatchObject({ calls: 0, cacheHits: sent, usd: 0, inputTokens: 0 })
    expect(rerun.run.usage.savedByCache.usd).toBe(report.run.usage.usd)
    expect(rerun.run.latencyMs.judge).toBeNull()
    expect(withoutRun(rerun)).toEqual(withoutRun(report))
  })

  it('says clearly that live mode needs ANTHROPIC_API_KEY', async () => {
    const result = await runEvalCli(['--out', temp('reports-')], { EVAL_MODE: 'live', ANTHROPIC_API_KEY: '' })
    expect(result.code).toBe(2)
    expect(result.stderr).toBe(
      'eval: EVAL_MODE=live calls the Anthropic API and needs ANTHROPIC_API_KEY in the environment; without a key use EVAL_MODE=offline (the default) or EVAL_MODE=replay (answers from fixtures/recordings/golden-set)\n',
    )
  })
})

describe('record, then replay', () => {
  it('records every exchange, keeps the key out of fixtures, reports, caches and logs, and replays to the same report', async () => {
    const paths = tinyProject()
    const [out, replayOut] = [temp('reports-'), temp('reports-')]
    const args = ['--corpus', paths.corpus!.dir, '--golden', paths.goldenSet, '--baseline', '']
    const dirs = { EVAL_CACHE_DIR: paths.cacheDir, EVAL_RECORDINGS_DIR: paths.recordingsDir, EVAL_RECORDING: 'tiny' }
    // ANTHROPIC_LOG=debug: the SDK logs every request, the logs are scanned too; the bin itself, since the SDK reads
    // ANTHROPIC_LOG from its process's environment and logs to its output.
    const recorded = await runEvalCli(
      [...args, '--out', out],
      liveEnv({ ...dirs, EVAL_MODE: 'record', ANTHROPIC_LOG: 'debug' }),
      'bin',
    )
    expect(recorded.code).toBe(0)
    expect(recorded.stdout).toContain('POST')
    const metadata = RecordingMetadataSchema.parse(
      JSON.parse(readFileSync(join(paths.recordingsDir, 'tiny', 'metadata.json'), 'utf8')),
    )
    expect(metadata).toMatchObject({
      complete: true,
      scripted: true,
      questions: ['g-1', 'g-2', 'g-3'],
      exchanges: local.server.requests.length,
    })
    expect(metadata.server).toBe('scripted local Messages API server (src/model-server/) on 127.0.0.1')
    expect(metadata.recordedAt).toMatch(/^\d{4}-\d\d-\d\dT/)

    const replayed = await runEvalCli([...args, '--out', replayOut], {
      ...dirs,
      EVAL_MODE: 'live',
      MOCK: '1',
      ANTHROPIC_API_KEY: '',
      ANTHROPIC_LOG: 'debug',
    })
    expect(replayed.code).toBe(0)
    expect(withoutRun(readReport(replayOut))).toEqual(withoutRun(readReport(out)))

    const scanned = [
      ...filesUnder(out),
      ...filesUnder(replayOut),
      ...filesUnder(paths.cacheDir),
      ...filesUnder(paths.recordingsDir),
      ...filesUnder('fixtures'),
      ...filesUnder('reports'),
    ]
    expect(scanned.length).toBeGreaterThan(10)
    for (const file of scanned) expect(textOf(file).includes(TEST_API_KEY), file).toBe(false)
    for (const log of [recorded.stdout, recorded.stderr, replayed.stdout, replayed.stderr])
      expect(log).not.toContain(TEST_API_KEY)
    // Nothing committed under fixtures/ looks like a real key either.
    for (const file of filesUnder('fixtures'))
      expect(textOf(file), file).not.toMatch(/sk-ant-(?:api|admin)\d\d-[A-Za-z0-9_-]{20,}/)
  })
})

describe('kill and resume', () => {
  it('a run killed halfway pays only for the rest when started again', async () => {
    const paths = tinyProject()
    let answered = 0
    let hung!: () => void
    const stalled = new Promise<void>((resolve) => (hung = resolve))
    // A server of its own: no stray request of another test can count here.
    const server = await startMessagesServer(scriptedReply)
    const liveEnv = (extra: Record<string, string> = {}) => ({
      EVAL_MODE: 'live',
      ANTHROPIC_API_KEY: TEST_API_KEY,
      ANTHROPIC_BASE_URL: server.url,
      ...extra,
    })
    server.setResponder((request) => {
      if (answered < 3) {
        answered += 1
        return scriptedReply(request)
      }
      hung()
      return { kind: 'hang' }
    })
    const args = ['--corpus', paths.corpus!.dir, '--golden', paths.goldenSet, '--baseline', '', '--out', temp('reports-')]
    const child = spawn(process.execPath, ragEvalArgv(['eval', ...args]), {
      env: { ...process.env, ...liveEnv({ EVAL_CACHE_DIR: paths.cacheDir, EVAL_TIMEOUT_MS: '30000' }) },
    })
    const exited = new Promise((resolve) => child.on('close', resolve))
    await stalled
    child.kill('SIGKILL')
    await exited
    const cached = filesUnder(paths.cacheDir).length
    expect(cached).toBe(3)
    const paid = new Set(server.requests.slice(0, 3).map((r) => JSON.stringify(r.body)))

    server.resetStats()
    server.setResponder(scriptedReply)
    const resumed = await evaluate(paths, { tier: 'full', env: liveEnv() })
    expect(resumed.run.usage.cacheHits).toBe(3)
    expect(resumed.run.usage.calls).toBe(server.requests.length)
    expect(server.requests.some((r) => paid.has(JSON.stringify(r.body)))).toBe(false)

    server.resetStats()
    const third = await evaluate(paths, { tier: 'full', env: liveEnv() })
    expect(server.requests).toHaveLength(0)
    expect(third.run.usage.cacheHits).toBe(resumed.run.usage.calls + 3)
    await server.close()
  })
})

describe('judge errors through the CLI', () => {
  it('GATE=1 makes the CLI exit 1 on them, even without a baseline', async () => {
    brokenFaithfulness()
    const paths = tinyProject()
    const args = ['--corpus', paths.corpus!.dir, '--golden', paths.goldenSet, '--baseline', '', '--out', temp('reports-')]
    const result = await runEvalCli(args, liveEnv({ EVAL_CACHE: 'off', GATE: '1' }))
    expect(result.code).toBe(1)
  })
})

describe('pnpm bench:model', () => {
  // Timing is the benchmark's to judge (pnpm bench:model), not a test's: the smoke run only checks that it runs and
  // reports, with a ratio limit no machine misses (a few questions are dominated by start-up).
  it('runs (a small smoke version: 3 questions, 40 ms latency; the real figures come from `pnpm bench:model`)', async () => {
    const result = await new Promise<{ code: number | null; out: string }>((resolve, reject) => {
      // The benchmark is a script of this repository (scripts/bench/model.ts), run by tsx as `pnpm bench:model` runs it.
      const child = spawn(process.execPath, [
        '--import',
        'tsx',
        'scripts/bench/model.ts',
        ...['--questions', '3', '--latency-ms', '40', '--max-ratio', '1000'],
      ])
      let out = ''
      child.stdout.on('data', (d: Buffer) => (out += d.toString()))
      child.stderr.on('data', (d: Buffer) => (out += d.toString()))
      child.on('error', reject)
      child.on('close', (code) => resolve({ code, out }))
    })
    expect(result.out).toMatch(/max in flight +[1-8] \(limit 8\)/)
    expect(result.out).toMatch(/ratio +\d+\.\d{3} \(target <= 1000\)/)
    expect(result.code).toBe(0)
  })
})
