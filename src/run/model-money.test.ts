import { describe, expect, it } from 'vitest'
import { filesUnder, readReport, runEvalCli, tempDir as temp, tinyProject } from '../model/testing/eval-child.ts'
import { forcedToolName, startMessagesServer, textReply } from '../model-server/messages-server.ts'
import { scriptedReply } from '../model-server/scripted-responder.ts'
import { TEST_API_KEY } from '../model/testing/test-client.ts'
import { TYPICAL_ANSWER } from '../model/estimate-transport.ts'
import { TOOL_USE_SYSTEM_TOKENS } from '../model/request-cost.ts'
import { countTextTokens } from '../text/tokenizer.ts'
import { renderMarkdown } from '../report/render-markdown.ts'
import { renderTerminalSummary } from '../report/render-terminal.ts'
import { evaluate } from './evaluate.ts'
import { TYPICAL_VERDICT_TOKENS } from './model-tier.ts'
import { useScriptedServer } from '../model/testing/use-scripted-server.ts'

// The money of a whole run against the local server: the estimate before any call, the cost block,
// prompt caching, EVAL_MAX_USD through the CLI, and EVAL_BATCH=1 with mixed batch outcomes.

const local = useScriptedServer()

const liveEnv = (url: string, extra: Record<string, string> = {}): Record<string, string> => ({
  EVAL_MODE: 'live',
  ANTHROPIC_API_KEY: TEST_API_KEY,
  ANTHROPIC_BASE_URL: url,
  ...extra,
})

describe('the cost estimate', () => {
  it('is made from the prompts the run will send and typical reply lengths, printed before any call, kept in the report, and free on a rerun', async () => {
    // The server answers the generator with the typical answer the estimate assumes, so the judge's prompts of the run
    // are the ones the estimate priced; the judges answer as the scripted server does (valid verdicts, no repair).
    local.server.setResponder((request) =>
      forcedToolName(request) === null ? textReply(request, TYPICAL_ANSWER) : scriptedReply(request),
    )
    const paths = tinyProject()
    const lines: string[] = []
    let sentBeforeEstimate = -1
    const log = (line: string) => {
      if (line.startsWith('cost estimate')) sentBeforeEstimate = local.server.requests.length
      lines.push(line)
    }
    const report = await evaluate(paths, { tier: 'full', env: liveEnv(local.server.url, { EVAL_MAX_USD: '5' }), log })
    expect(sentBeforeEstimate).toBe(0)
    const { estimate, usage } = report.run
    expect(estimate).not.toBeNull()
    // The prompts as sent (the local server counts input tokens with the same tokenizer), the replies at typical length.
    const generator = usage.byRole.generator
    expect(generator.calls).toBe(3)
    expect(estimate!.byRole.generator).toMatchObject({
      model: 'claude-sonnet-5',
      calls: 3,
      cached: 0,
      inputTokens: generator.inputTokens,
      outputTokens: 3 * countTextTokens(TYPICAL_ANSWER),
    })
    const judge = usage.byRole.judge
    // The estimate adds the tool-use system prompt the API bills (the local server does not).
    expect(estimate!.byRole.judge).toMatchObject({
      calls: judge.calls,
      inputTokens: judge.inputTokens + judge.calls * TOOL_USE_SYSTEM_TOKENS,
      outputTokens: judge.calls * TYPICAL_VERDICT_TOKENS,
      batch: false,
    })
    expect(estimate!.worstCaseUsd).toBeGreaterThan(estimate!.usd * 3)
    expect(estimate!.maxUsd).toBe(5)
    expect(estimate!.notes).toContain(
      'judge prompt caching will not engage: its cacheable prefix (tools and system prompt, up to the cache_control breakpoint) is at most 736 tokens, shorter than the 4,096 tokens claude-haiku-4-5-20251001 caches at least, so it is billed as plain input (the breakpoint is sent anyway; it costs nothing)',
    )
    expect(lines[0]).toContain(
      `cost estimate before any model call (dry run: the generator's 3 prompts as they will be sent, 0 of them answered by the cache; ` +
        `the judge's built on a typical answer (${countTextTokens(TYPICAL_ANSWER)} tokens) for the 3 not yet known; ` +
        `replies priced at ${countTextTokens(TYPICAL_ANSWER)} tokens an answer, ${TYPICAL_VERDICT_TOKENS} a judge's verdicts)`,
    )
    expect(lines[0]).toContain(`\n  judge (claude-haiku-4-5-20251001): ${judge.calls} call(s) to send, 0 from the cache; ~`)
    expect(lines[0]).toMatch(
      /\n {2}total ~\$\d\.\d{4}, ceiling \$\d\.\d{4} \(every reply at max_tokens\) · EVAL_MAX_USD \$5\.00: no request is sent whose worst case could cross it\n/,
    )
    // The report keeps it: the JSON, the terminal summary, the Markdown.
    expect(renderTerminalSummary(report)).toContain(
      `  estimated before the run: ~$${estimate!.usd.toFixed(4)} (ceiling $${estimate!.worstCaseUsd.toFixed(4)}), cap EVAL_MAX_USD $5.00`,
    )
    expect(renderMarkdown(report)).toContain('\n```text\ncost estimate before any model call (dry run:')

    local.server.resetStats()
    const rerun = await evaluate(paths, { tier: 'full', env: liveEnv(local.server.url), log: () => {} })
    expect(local.server.requests).toHaveLength(0)
    expect(rerun.run.estimate).toMatchObject({
      usd: 0,
      worstCaseUsd: 0,
      byRole: { generator: { calls: 0, cached: 3 }, judge: { calls: 0, cached: judge.calls } },
    })
    expect(rerun.run.estimate!.basis).toContain("the judge's prompts as they will be sent, built on the cached answers")
  })

  it('replay costs nothing and has none', async () => {
    const paths = tinyProject()
    await evaluate(paths, { tier: 'full', env: liveEnv(local.server.url, { EVAL_MODE: 'record', EVAL_RECORDING: 'tiny' }) })
    const replayed = await evaluate(paths, { tier: 'full', env: { EVAL_MODE: 'replay', EVAL_RECORDING: 'tiny' } })
    expect(replayed.run.estimate).toBeNull()
  })
})

describe('the cost block', () => {
  it('splits generator, judge, cache hits and prompt caching savings (billed by the local server, priced from the table)', async () => {
    // A server that caches any prefix (no minimum), so the judge's fixed instructions are written once and then read.
    const caching = await startMessagesServer(scriptedReply, { promptCache: () => 0 })
    try {
      const paths = tinyProject()
      const report = await evaluate(paths, { tier: 'full', env: liveEnv(caching.url, { EVAL_CONCURRENCY: '1' }) })
      const { usage } = report.run
      const judgeCalls = report.run.modelCalls.filter((c) => c.role === 'judge')
      // One write per judge prompt (faithfulness, relevancy, coverage, generator diagnostics, citations), every later call of it reads.
      const writes = judgeCalls.filter((c) => c.cacheWriteTokens > 0)
      expect(new Set(writes.map((c) => c.purpose))).toEqual(
        new Set([
          'judge:faithfulness',
          'judge:answer-relevancy',
          'judge:coverage',
          'judge:generator-diagnostics',
          'judge:citations',
        ]),
      )
      expect(writes).toHaveLength(5)
      expect(judgeCalls.filter((c) => c.cacheReadTokens > 0)).toHaveLength(judgeCalls.length - 5)
      expect(usage.savedByPromptCache.cacheReadTokens).toBe(usage.cacheReadTokens)
      // Haiku 4.5: reads save $0.90 per million, writes cost $0.25 per million more than input.
      const saved = (usage.byRole.judge.cacheReadTokens * 0.9 - usage.byRole.judge.cacheWriteTokens * 0.25) / 1e6
      // The generator's prompt (claude-sonnet-5) is cached too on this local server.
      const generator =
        (usage.byRole.generator.cacheReadTokens * (3 - 0.3) - usage.byRole.generator.cacheWriteTokens * (3.75 - 3)) / 1e6
      expect(usage.savedByPromptCache.usd).toBeCloseTo(saved + generator, 5)
      expect(usage.savedByPromptCache.usd).toBeGreaterThan(0)

      const rerun = await evaluate(paths, { tier: 'full', env: liveEnv(caching.url) })
      const summary = renderTerminalSummary(rerun).split('\n')
      const first = renderTerminalSummary(report).split('\n')
      const block = first.slice(
        first.findIndex((l) => l.startsWith('model cost:')),
        first.findIndex((l) => l.startsWith('  estimated before the run')) + 1,
      )
      expect(block[0]).toMatch(
        new RegExp(
          `^model cost: \\$${usage.usd.toFixed(4)} \\(generator \\$${usage.byRole.generator.usd.toFixed(4)}, judge \\$${usage.byRole.judge.usd.toFixed(4)}\\) · latency generate p50 \\d+ ms, p95 \\d+ ms, judge p50 \\d+ ms, p95 \\d+ ms$`,
        ),
      )
      expect(block.slice(1)).toEqual([
        `  generator (claude-sonnet-5): 3 call(s), ${usage.byRole.generator.inputTokens.toLocaleString('en-US')} input + ${usage.byRole.generator.outputTokens.toLocaleString('en-US')} output tokens (cache read ${usage.byRole.generator.cacheReadTokens.toLocaleString('en-US')}, write ${usage.byRole.generator.cacheWriteTokens.toLocaleString('en-US')}): $${usage.byRole.generator.usd.toFixed(4)}`,
        `  judge (claude-haiku-4-5-20251001): ${usage.byRole.judge.calls} call(s), ${usage.byRole.judge.inputTokens.toLocaleString('en-US')} input + ${usage.byRole.judge.outputTokens.toLocaleString('en-US')} output tokens (cache read ${usage.byRole.judge.cacheReadTokens.toLocaleString('en-US')}, write ${usage.byRole.judge.cacheWriteTokens.toLocaleString('en-US')}): $${usage.byRole.judge.usd.toFixed(4)}`,
        '  cache hits: 0 response(s) from the response cache, not paid for',
        `  prompt caching: ${usage.cacheReadTokens.toLocaleString('en-US')} token(s) read from the cache, ${usage.cacheWriteTokens.toLocaleString('en-US')} written: saved $${usage.savedByPromptCache.usd.toFixed(4)}`,
        `  estimated before the run: ~$${report.run.estimate!.usd.toFixed(4)} (ceiling $${report.run.estimate!.worstCaseUsd.toFixed(4)})`,
      ])
      // The rerun: all hits, their would-be cost named.
      expect(summary).toContain(
        `  cache hits: ${usage.calls} response(s) from the response cache, not paid for: they would have cost $${usage.usd.toFixed(4)}`,
      )
    } finally {
      await caching.close()
    }
  })
})

describe('EVAL_MAX_USD through the CLI', () => {
  it('stops before a request could cross the cap, exits 2 saying what was spent and that a rerun resumes; the rerun pays only for the rest', async () => {
    const paths = tinyProject()
    const args = ['--corpus', paths.corpus!.dir, '--golden', paths.goldenSet, '--baseline', '', '--out', temp('reports-')]
    const env = liveEnv(local.server.url, { EVAL_CACHE_DIR: paths.cacheDir, EVAL_MAX_USD: '0.02' })
    const stopped = await runEvalCli(args, env)
    expect(stopped.code).toBe(2)
    expect(stopped.stdout).toMatch(/^cost estimate before any model call /)
    expect(stopped.stdout).toContain('· EVAL_MAX_USD $0.0200: no request is sent whose worst case could cross it')
    const paid = local.server.requests.length
    expect(paid).toBeGreaterThan(0)
    expect(stopped.stderr).toMatch(
      new RegExp(
        `^eval: EVAL_MAX_USD=\\$0\\.0200 reached: g-\\d [a-z:-]+ \\(claude-[a-z0-9-]+\\) was not sent, because its worst case \\(\\$0\\.\\d{4}, the reply at max_tokens\\) could take the run over the cap\\. ` +
          `Spent: \\$0\\.0\\d{3} on ${paid} API call\\(s\\)\\. Every response paid for is in the cache \\(${paths.cacheDir}/127\\.0\\.0\\.1_\\d+\\): a rerun resumes from it and pays only for the rest; or raise EVAL_MAX_USD\\.\\n$`,
      ),
    )
    // Everything paid for is in the cache, and nothing else.
    expect(filesUnder(paths.cacheDir)).toHaveLength(paid)

    const sent = new Set(local.server.requests.map((r) => JSON.stringify(r.body)))
    local.server.resetStats()
    const resumed = await runEvalCli(args, { ...env, EVAL_MAX_USD: '1' })
    expect(resumed.code).toBe(0)
    expect(local.server.requests.some((r) => sent.has(JSON.stringify(r.body)))).toBe(false)
    const report = readReport(args[args.length - 1]!)
    expect(report.run.usage.cacheHits).toBe(paid)
    expect(report.run.estimate?.byRole.generator.cached).toBe(report.run.usage.byRole.generator.cacheHits)
  })
})

describe('EVAL_BATCH=1', () => {
  it('sends the judge through one batch, prints its progress, resends expired items, turns refused ones into judge errors, and prices at half', async () => {
    // The first item is refused (invalid), the second expires; the rest succeed after two polls in progress.
    local.server.batchPlan = {
      pollsInProgress: 2,
      outcome: ({ index }) =>
        index === 0
          ? { errored: { type: 'invalid_request_error', message: 'prompt is too long' } }
          : index === 1
            ? 'expired'
            : 'succeeded',
    }
    const paths = tinyProject()
    const lines: string[] = []
    const report = await evaluate(paths, {
      tier: 'full',
      env: liveEnv(local.server.url, { EVAL_BATCH: '1', EVAL_BATCH_POLL_MS: '5', EVAL_MAX_JUDGE_ERROR_RATE: '1' }),
      log: (line) => lines.push(line),
    })
    expect(local.server.batches).toHaveLength(1)
    const items = local.server.batches[0]!.requests.length
    const { usage, batches, estimate } = report.run
    // Normal calls: the three answers, and the expired item sent again.
    expect(local.server.requests.filter((r) => r.body.tools)).toHaveLength(1)
    expect(usage.byRole.judge).toMatchObject({ calls: items - 1, batchCalls: items - 2 })
    expect(usage.savedByBatch.calls).toBe(items - 2)
    expect(batches).toEqual([
      {
        id: 'msgbatch_local_0001',
        requests: items,
        succeeded: items - 2,
        errored: 1,
        expired: 1,
        canceled: 0,
        resent: 1,
        failed: 1,
        polls: 3,
        wallMs: expect.any(Number),
      },
    ])
    expect(report.run.modelCalls.filter((c) => c.batch)).toHaveLength(items - 2)
    for (const call of report.run.modelCalls.filter((c) => c.batch)) expect(call.latencyMs).toBeNull()
    expect(estimate!.byRole.judge.batch).toBe(true)
    // The refused item is a judge error for its metric, saying why.
    const failed = report.questions.flatMap((q) => q.generation?.judgeErrors ?? [])
    expect(failed).toHaveLength(1)
    expect(failed[0]!.message).toMatch(
      / judge: batch msgbatch_local_0001 item errored \(invalid_request_error: prompt is too long\); not sent again as a normal call, which would send the same request$/,
    )
    expect(report.summary.judgeErrors).toBe(1)
    expect(lines.filter((l) => l.startsWith('batch msgbatch_local_0001: '))).toEqual([
      expect.stringMatching(
        /^batch msgbatch_local_0001: \d+ judge request\(s\) submitted to the Message Batches API \(half price; worst case \$0\.\d{4}\); polling every 5 ms$/,
      ),
      // The elapsed time reads "910 ms", "2.3 s" or "1 min 5 s", as long as the machine took.
      expect.stringMatching(/in progress · \d+ processing, 0 succeeded, 0 errored, 0 expired · \d[\d. a-z]* (ms|s)$/),
      expect.stringMatching(/in progress · \d+ processing/),
      expect.stringMatching(/ended after \d[\d. a-z]* (ms|s): \d+ succeeded, 1 errored, 1 expired$/),
    ])
    expect(lines.filter((l) => l.endsWith('; sending it as a normal call (full price)'))).toHaveLength(1)
    expect(renderTerminalSummary(report)).toMatch(
      /\n {2}batch discount: \d+ call\(s\) answered in Message Batches: saved \$0\.\d{4}\n/,
    )

    // Merged into the one cache: a run without batches pays only for the item that failed.
    local.server.resetStats()
    const plain = await evaluate(paths, { tier: 'full', env: liveEnv(local.server.url) })
    expect(local.server.requests).toHaveLength(1)
    expect(plain.summary.judgeErrors).toBe(0)
  })
})
