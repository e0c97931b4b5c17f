import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ReplayMissError } from '../model/model-errors.ts'
import { RecordingMetadataSchema } from '../model/recording.ts'
import { tempDir as temp, tinyProject } from '../model/testing/eval-child.ts'
import { textReply, toolUseReply } from '../model-server/messages-server.ts'
import { scriptedReply, userText } from '../model-server/scripted-responder.ts'
import { TEST_API_KEY } from '../model/testing/test-client.ts'
import { renderTerminalSummary } from '../report/render-terminal.ts'
import type { ProjectConfig } from '../config/project-config.ts'
import { loadProjectConfig } from '../config/load-project-config.ts'
import { evaluate } from './evaluate.ts'
import { useScriptedServer } from '../model/testing/use-scripted-server.ts'

const repository = await loadProjectConfig()

// The model modes in process: replay of the committed recording, replay's errors, warnings, judge errors.
// The CLI end to end (live, rerun, record, kill and resume, key scan) is in model-modes-cli.test.ts.

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

describe('replay of the committed recording (fixtures/recordings/golden-set)', () => {
  it('runs the whole golden set offline: every call replayed, none sent, usage counted, marked scripted', async () => {
    // A key and a reachable server are there to prove replay never uses them.
    const report = await evaluate(repository, {
      tier: 'full',
      env: { EVAL_MODE: 'replay', ANTHROPIC_API_KEY: TEST_API_KEY, ANTHROPIC_BASE_URL: local.server.url },
    }).catch((error: Error) => {
      throw new Error(
        `${error.message}\n(the committed recording no longer matches the golden set, corpus or prompts: run \`pnpm record:scripted\` and commit fixtures/recordings/golden-set)`,
      )
    })
    expect(local.server.requests).toHaveLength(0)
    expect(report.config.mode).toBe('replay')
    expect(report.summary.judge).toBe('model:claude-haiku-4-5-20251001')
    expect(report.questions.every((q) => q.answer !== null)).toBe(true)
    expect(report.summary.judgeErrors).toBe(0)
    const { usage } = report.run
    expect(usage).toMatchObject({ calls: 0, usd: 0, inputTokens: 0, retries: 0 })
    expect(usage.cacheHits).toBe(usage.byRole.generator.cacheHits + usage.byRole.judge.cacheHits)
    expect(usage.byRole.generator.cacheHits).toBe(report.questions.length)
    expect(usage.byRole.judge.cacheHits).toBeGreaterThan(report.questions.length)
    expect(usage.savedByCache.inputTokens).toBeGreaterThan(0)
    expect(usage.savedByCache.usd).toBeGreaterThan(0)
    expect(report.run.latencyMs.generate).toBeNull()
    expect(report.run.modelCalls.every((c) => c.source === 'recording' && c.usd === 0 && c.latencyMs === null)).toBe(true)
    expect(report.inputs.judgePromptsHash).toMatch(/^[0-9a-f]{16}$/)
    expect(report.warnings[0]).toMatch(/^replaying fixtures\/recordings\/golden-set, a scripted recording/)
    expect(report.calibration?.scripted).toBe(true)
    const metadata = RecordingMetadataSchema.parse(
      JSON.parse(readFileSync('fixtures/recordings/golden-set/metadata.json', 'utf8')),
    )
    expect(metadata).toMatchObject({
      scripted: true,
      complete: true,
      models: { generator: report.config.generatorModel, judge: report.config.judgeModel },
    })
    expect(metadata.questions).toEqual(report.questions.map((q) => q.id))
  })
})

describe('live against the local server', () => {
  it('the retrieval tier asks the model nothing, so it needs no key and no recording', async () => {
    const report = await evaluate(repository, { tier: 'retrieval', env: { EVAL_MODE: 'live' } })
    expect(report.run.usage.calls).toBe(0)
    expect(report.inputs.judgePromptsHash).toBeNull()
  })

  it('trials: each trial is its own generator call, a rerun costs nothing and a replay of the recording is exact', async () => {
    const project = tinyProject()
    const once = await evaluate(project, { tier: 'full', env: liveEnv() })
    const recorded = await evaluate(project, { tier: 'full', env: liveEnv({ EVAL_MODE: 'record', EVAL_TRIALS: '3' }) })
    // Trial 0 is the call of a run of one trial (cached); trials 1 and 2 are new calls of their own.
    const generator = (report: typeof once) => report.run.usage.byRole.generator
    expect([generator(recorded).calls, generator(recorded).cacheHits]).toEqual([2 * generator(once).calls, generator(once).calls])
    const rerun = await evaluate(project, { tier: 'full', env: liveEnv({ EVAL_TRIALS: '3' }) })
    expect(rerun.run.usage.calls).toBe(0)
    const replayed = await evaluate(project, { tier: 'full', env: liveEnv({ EVAL_MODE: 'replay', EVAL_TRIALS: '3' }) })
    expect(replayed.run.usage.calls).toBe(0)
    expect(JSON.stringify(replayed.questions)).toBe(JSON.stringify(recorded.questions))
  })

  it('warns in the report and the terminal when the generator and the judge are one model', async () => {
    const report = await evaluate(tinyProject(), { tier: 'full', env: liveEnv({ EVAL_JUDGE_MODEL: 'claude-sonnet-5' }) })
    expect(report.warnings[0]).toMatch(
      /^the generator and the judge are the same model \(claude-sonnet-5\): .*self-preference bias/,
    )
    expect(renderTerminalSummary(report)).toContain('warning: the generator and the judge are the same model (claude-sonnet-5)')
    const other = await evaluate(tinyProject(), { tier: 'full', env: liveEnv() })
    // (The tiny corpus, 108 tokens, is also below the 600-token budget: that warning is left out here.)
    expect(other.warnings.filter((w) => !w.startsWith('budgetTokens'))).toEqual([
      `the server at ${local.server.url} is scripted (it marks its responses so): its numbers measure scripted outputs, not a real model`,
    ])
  })
})

describe('live generation', () => {
  it('answers from the packed context as delimited data, and names an answer cut off at max_tokens in the warnings', async () => {
    local.server.setResponder((r) =>
      r.body.tools ? scriptedReply(r) : textReply(r, 'Traces are kept for 30 days on', { stopReason: 'max_tokens' }),
    )
    const project = tinyProject()
    const report = await evaluate(
      { ...project, knobValues: { ...project.knobValues, generatorMaxTokens: 8 } },
      { tier: 'full', env: liveEnv() },
    )
    const generation = local.server.requests.filter((r) => !r.body.tools)
    expect(generation).toHaveLength(3)
    expect(generation.every((r) => r.body.max_tokens === 8 && r.body.model === 'claude-sonnet-5')).toBe(true)
    expect(JSON.stringify(generation[0]!.body.system)).toContain(
      'I could not find the answer to this question in the provided material.',
    )
    expect(userText(generation[0]!)).toMatch(/^<material>\n<chunk id="[^"]+">\n[\s\S]*<\/material>\n\n<question>\n/)
    expect(report.questions.every((q) => q.answer === 'Traces are kept for 30 days on')).toBe(true)
    expect(report.warnings.filter((w) => w.includes('cut off'))).toEqual(
      ['g-1', 'g-2', 'g-3'].map((id) => `${id}: the generator's answer was cut off at max_tokens (8); it is judged as it is`),
    )
  })
})

describe('replay errors', () => {
  it('replay names what it cannot answer (and MOCK=1 replays): unrecorded questions, changed requests, other models, no or half a recording', async () => {
    const paths = tinyProject()
    await evaluate(paths, { tier: 'full', env: liveEnv({ EVAL_MODE: 'record', EVAL_RECORDING: 'tiny' }) })
    const replay = (env: Record<string, string> = {}, override: Partial<ProjectConfig> = {}) =>
      evaluate({ ...paths, ...override }, { tier: 'full', env: { EVAL_MODE: 'replay', EVAL_RECORDING: 'tiny', ...env } })
    await expect(replay()).resolves.toMatchObject({ summary: { judgeErrors: 0 } })
    // MOCK=1 turns a live run into a replay of its recording.
    const mocked = await evaluate(paths, { tier: 'full', env: { EVAL_MODE: 'live', MOCK: '1', EVAL_RECORDING: 'tiny' } })
    expect([mocked.config.mode, mocked.run.usage.calls]).toEqual(['replay', 0])

    const golden = JSON.parse(readFileSync(paths.goldenSet, 'utf8')) as { questions: { id: string; question: string }[] }
    const grown = join(temp('golden-'), 'golden.json')
    writeFileSync(
      grown,
      JSON.stringify({
        questions: [...golden.questions, { ...golden.questions[0]!, id: 'g-9' }, { ...golden.questions[0]!, id: 'g-10' }],
      }),
    )
    await expect(replay({}, { goldenSet: grown })).rejects.toThrow(
      /^replay: the recording at .*tiny holds no responses for 2 question\(s\) of the golden set: g-9, g-10; re-record with `rag-eval record-scripted`/,
    )

    const edited = join(temp('golden-'), 'golden.json')
    writeFileSync(
      edited,
      JSON.stringify({
        questions: golden.questions.map((q) =>
          q.id === 'g-1' ? { ...q, question: 'How long are traces kept on Business, in days?' } : q,
        ),
      }),
    )
    const miss = await replay({}, { goldenSet: edited }).catch((e: unknown) => e as Error)
    expect(miss).toBeInstanceOf(Error)
    expect((miss as Error).message).toMatch(
      /^question g-1: builtin-bm25 failed: replay: no recorded response for g-1 generate \(claude-sonnet-5\): it differs from the recorded generate call of g-1: the inputs differ/,
    )
    expect((miss as Error).cause).toBeInstanceOf(ReplayMissError)

    await expect(replay({ EVAL_JUDGE_MODEL: 'claude-sonnet-5' })).rejects.toThrow(
      /was made with judge claude-haiku-4-5-20251001 \(this run: claude-sonnet-5\)/,
    )
    await expect(replay({ EVAL_RECORDING: 'nothing-here' })).rejects.toThrow(
      /^replay: no recording at .*nothing-here \(metadata\.json missing\); re-record with/,
    )

    // A record run that dies leaves the previous complete recording as it was (src/model/recording.test.ts); replay still answers from it.
    local.server.setResponder((r) =>
      (r.body.tool_choice as { name?: string } | undefined)?.name
        ? { kind: 'error', status: 400, errorType: 'invalid_request_error', message: 'no' }
        : scriptedReply(r),
    )
    await expect(
      evaluate(paths, { tier: 'full', env: liveEnv({ EVAL_MODE: 'record', EVAL_RECORDING: 'tiny', EVAL_CACHE: 'off' }) }),
    ).rejects.toThrow(/HTTP 400/)
    await expect(replay()).resolves.toMatchObject({ config: { mode: 'replay' } })
  })
})

describe('judge errors', () => {
  it('give null scores with status judge-error, are counted in the summary, and fail the gate above the limit', async () => {
    brokenFaithfulness()
    const report = await evaluate(tinyProject(), {
      tier: 'full',
      env: liveEnv({ EVAL_CACHE: 'off' }),
      baselineRoot: temp('no-baseline-'),
    })
    const failed = report.questions.filter((q) => q.generation?.judgeErrors.length)
    expect(failed.length).toBeGreaterThan(0)
    for (const q of failed) {
      expect(q.faithfulness).toBeNull()
      expect(q.generation?.faithfulness.status).toBe('judge-error')
      expect(q.generation?.judgeErrors[0]?.message).toMatch(/^faithfulness judge: invalid record_faithfulness input/)
    }
    const judged = report.questions.filter((q) => q.answer !== null).length
    expect(report.summary.judgeErrors).toBe(failed.length)
    expect(report.summary.judgeErrorRate).toBe(Math.round((failed.length / judged) * 1e4) / 1e4)
    expect(report.gate?.passed).toBe(false)
    expect(report.gate?.regressions).toContainEqual({
      name: 'judge-error rate (limit 0.05)',
      baseline: 0.05,
      current: report.summary.judgeErrorRate,
      delta: expect.any(Number),
    })

    const tolerant = await evaluate(tinyProject(), {
      tier: 'full',
      env: liveEnv({ EVAL_CACHE: 'off', EVAL_MAX_JUDGE_ERROR_RATE: '1' }),
      baselineRoot: temp('no-baseline-'),
    })
    expect(tolerant.gate?.regressions).toEqual([])
  })
})
