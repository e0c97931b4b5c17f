import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { FAITHFULNESS_PROMPT } from '../judge/dimensions/faithfulness.ts'
import { toolRequest } from './structured-call.ts'
import type { ModelCall } from './model-types.ts'
import { cacheMinTokens, costUsd, DEFAULT_CACHE_MIN_TOKENS, loadPriceTable, priceOf, promptCacheSavingsUsd } from './prices.ts'
import { PromptCacheSimulator } from './prompt-cache.ts'
import {
  cacheablePrefixTokens,
  rawRequestTokens,
  requestInputTokens,
  TOKEN_COUNT_MARGIN,
  TOOL_USE_SYSTEM_TOKENS,
  worstCaseUsd,
} from './request-cost.ts'
import { BudgetExceededError } from './spending-cap.ts'
import { startMessagesServer, textReply, type MessagesServer } from '../model-server/messages-server.ts'
import { scriptedReply } from '../model-server/scripted-responder.ts'
import { localClient } from './testing/test-client.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'

/** Temp folders of this file's tests, removed after each test. */
const tempDirs = useTempDirs()

// The money of the model tier, call by call: prices with the batch factor, prompt caching as billed,
// the worst case of a request, and EVAL_MAX_USD stopping a run before a request could cross it.

const table = loadPriceTable('evals/model-prices.json')
const haiku = priceOf(table, 'claude-haiku-4-5-20251001')!
const MODEL = 'claude-haiku-4-5-20251001'

/** A judge-shaped call: the faithfulness prompt's system (with its cache_control breakpoint) and tool, forced. */
function judgeCall(
  subject: string,
  user = `<question>\nHow long are traces kept?\n</question>\n\n${subject}`,
  maxTokens = 256,
): ModelCall {
  return {
    role: 'judge',
    subject,
    purpose: 'judge:faithfulness',
    templateHash: 'money-test',
    schemaHash: null,
    inputs: { user },
    sample: 0,
    request: toolRequest(FAITHFULNESS_PROMPT, MODEL, maxTokens, user),
  }
}

let server: MessagesServer
beforeAll(async () => {
  server = await startMessagesServer(scriptedReply, { promptCache: () => 100 })
})
afterAll(() => server.close())
beforeEach(() => {
  server.resetStats()
  server.setResponder((r) => textReply(r, 'A short reply.'))
})

describe('prices', () => {
  it('the batch factor halves every token price; prompt caching saves reads and pays a premium on writes', () => {
    const usage = { inputTokens: 1000, outputTokens: 200, cacheReadTokens: 3000, cacheWriteTokens: 500 }
    expect(table.batchFactor).toBe(0.5)
    expect(costUsd(haiku, usage, table.batchFactor)).toBeCloseTo(costUsd(haiku, usage) / 2, 12)
    // Haiku 4.5: $1 input, $0.10 cache read, $1.25 cache write per million.
    expect(promptCacheSavingsUsd(haiku, usage)).toBeCloseTo((3000 * (1 - 0.1) - 500 * (1.25 - 1)) / 1e6, 12)
    expect(promptCacheSavingsUsd(haiku, { ...usage, cacheReadTokens: 0 })).toBeLessThan(0)
  })

  it("knows each model's minimum cacheable prefix (4,096 for Haiku 4.5, 1,024 by default)", () => {
    expect(cacheMinTokens(table, MODEL)).toBe(4096)
    expect(cacheMinTokens(table, 'claude-sonnet-5')).toBe(1024)
    expect(cacheMinTokens({ ...table, models: { x: { input: 1, output: 1, cacheRead: 1, cacheWrite: 1 } } }, 'x')).toBe(
      DEFAULT_CACHE_MIN_TOKENS,
    )
  })

  it("a request's input counts its text and the tool-use system prompt; its worst case covers the margin, the cache-write price and max_tokens", () => {
    const call = judgeCall('q-1', 'x', 500)
    const raw = rawRequestTokens(call.request)
    expect(requestInputTokens(call.request)).toBe(raw + TOOL_USE_SYSTEM_TOKENS)
    const prefix = cacheablePrefixTokens(call.request)
    expect(prefix).toBeGreaterThan(600)
    expect(prefix).toBeLessThan(raw)
    const input = raw + TOOL_USE_SYSTEM_TOKENS
    expect(worstCaseUsd(haiku, call.request)).toBeCloseTo(
      ((prefix * 1.25 + (input - prefix) * 1) * TOKEN_COUNT_MARGIN + 500 * 5) / 1e6,
      12,
    )
    expect(worstCaseUsd(haiku, call.request, 0.5)).toBeCloseTo(worstCaseUsd(haiku, call.request) / 2, 12)
  })
})

describe('prompt caching', () => {
  it('the simulator writes a prefix the first time, reads it after, per model, and caches nothing below the minimum', () => {
    const request = judgeCall('q-1').request
    const total = rawRequestTokens(request)
    const prefix = cacheablePrefixTokens(request)
    const cache = new PromptCacheSimulator((model) => (model === MODEL ? 100 : 1_000_000))
    expect(cache.split(request, total)).toEqual({
      input: total - prefix,
      cacheRead: 0,
      cacheWrite: prefix,
    })
    expect(cache.split(judgeCall('q-2').request, total)).toMatchObject({ cacheRead: prefix, cacheWrite: 0 })
    expect(cache.split({ ...request, model: 'claude-sonnet-5' }, total)).toEqual({ input: total, cacheRead: 0, cacheWrite: 0 })
    expect(cache.split({ ...request, system: 'no breakpoint' }, total)).toEqual({ input: total, cacheRead: 0, cacheWrite: 0 })
  })

  it('the local server bills cache writes and reads, and the ledger prices them and the saving', async () => {
    // A server of its own: its prompt cache has seen no prefix another test of this file sent.
    const caching = await startMessagesServer(scriptedReply, { promptCache: () => 100 })
    try {
      const client = localClient(caching, { concurrency: 1 })
      const first = await client.call(judgeCall('q-1'))
      const second = await client.call(judgeCall('q-2'))
      const prefix = cacheablePrefixTokens(judgeCall('q-1').request)
      expect(first.response.usage).toMatchObject({ cacheWriteTokens: prefix, cacheReadTokens: 0 })
      expect(second.response.usage).toMatchObject({ cacheWriteTokens: 0, cacheReadTokens: prefix })
      expect(first.usd).toBeCloseTo(costUsd(haiku, first.response.usage), 12)
      const usage = client.ledger.usage()
      expect(usage.savedByPromptCache).toEqual({
        cacheReadTokens: prefix,
        cacheWriteTokens: prefix,
        usd: Math.round(((prefix * (1 - 0.1) - prefix * (1.25 - 1)) / 1e6) * 1e6) / 1e6,
      })
      expect(usage.byRole.judge.promptCacheSavedUsd).toBe(usage.savedByPromptCache.usd)
    } finally {
      await caching.close()
    }
  })
})

describe('EVAL_MAX_USD', () => {
  it('never sends a request whose worst case could cross the cap; the error says what was spent, the cap, and how to resume', async () => {
    const cacheDir = tempDirs.make('model-cache-')
    // Every reply bills 1,000 input and 256 output tokens: $0.00228 at Haiku 4.5's prices.
    server.setResponder((r) => textReply(r, 'A reply.', { usage: { input_tokens: 1000, output_tokens: 256 } }))
    const each = (1000 * 1 + 256 * 5) / 1e6
    const worst = worstCaseUsd(haiku, judgeCall('q-1').request)
    // Room for three calls: after two, spent + a worst case still fits; after three it does not.
    const cap = 2 * each + worst + 1e-9
    const client = localClient(server, { cacheDir, concurrency: 1, maxUsd: cap })
    for (const subject of ['q-1', 'q-2', 'q-3']) await client.call(judgeCall(subject))
    expect(client.spentUsd).toBeCloseTo(3 * each, 12)
    const error = (await client.call(judgeCall('q-4')).catch((e: unknown) => e)) as Error
    expect(error).toBeInstanceOf(BudgetExceededError)
    expect(server.requests).toHaveLength(3)
    expect(error.message).toBe(
      `EVAL_MAX_USD=$${cap.toFixed(4)} reached: q-4 judge:faithfulness (${MODEL}) was not sent, because its worst case ($${worst.toFixed(4)}, the reply at max_tokens) could take the run over the cap. ` +
        `Spent: $${(3 * each).toFixed(4)} on 3 API call(s). Every response paid for is in the cache (${cacheDir}): a rerun resumes from it and pays only for the rest; or raise EVAL_MAX_USD.`,
    )
    // Nothing more is sent once the cap has stopped the run.
    await expect(client.call(judgeCall('q-5'))).rejects.toThrow(
      /^q-5: judge:faithfulness not sent: the run already failed \(EVAL_MAX_USD=/,
    )
    expect(server.requests).toHaveLength(3)

    // A rerun resumes from the cache: the three paid calls are free, only the rest is sent.
    const rerun = localClient(server, { cacheDir, concurrency: 1, maxUsd: cap })
    for (const subject of ['q-1', 'q-2', 'q-3', 'q-4']) await rerun.call(judgeCall(subject))
    expect(server.requests).toHaveLength(4)
    expect(rerun.ledger.usage()).toMatchObject({ calls: 1, cacheHits: 3 })
  })

  it('a call that does not fit while others are in flight waits for them to land instead of stopping the run', async () => {
    server.latencyMs = 20
    const worst = worstCaseUsd(haiku, judgeCall('q-1').request)
    // One worst case at a time fits; the calls really cost far less, so all of them go, one after another.
    const client = localClient(server, { concurrency: 4, maxUsd: worst * 1.5 })
    await Promise.all(['q-1', 'q-2', 'q-3', 'q-4'].map((subject) => client.call(judgeCall(subject))))
    server.latencyMs = 0
    expect(server.requests).toHaveLength(4)
    expect(server.maxInFlight).toBe(1)
    expect(client.spentUsd).toBeLessThan(worst * 1.5)
  })

  it('without a cap it only counts', async () => {
    const client = localClient(server)
    await client.call(judgeCall('q-1'))
    expect(client.spentUsd).toBeGreaterThan(0)
    expect(client.paidCalls).toBe(1)
  })
})
