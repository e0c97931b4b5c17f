import { APIError } from '@anthropic-ai/sdk'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createSdkBatchTransport, type BatchTransport } from './batch-transport.ts'
import { callKey, callParts } from './exchange.ts'
import { type BatchSettings, type ModelClientOptions } from './model-client.ts'
import { BatchItemError, ModelCallError } from './model-errors.ts'
import type { ModelResult } from './model-types.ts'
import { priceOf, costUsd, loadPriceTable } from './prices.ts'
import { worstCaseUsd } from './request-cost.ts'
import { BudgetExceededError } from './spending-cap.ts'
import {
  DEFAULT_BATCH_PLAN,
  startMessagesServer,
  textReply,
  type BatchItemOutcome,
  type MessagesServer,
} from '../model-server/messages-server.ts'
import { localClient, TEST_API_KEY, textCall } from './testing/test-client.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'

/** Temp folders of this file's tests, removed after each test. */
const tempDirs = useTempDirs()

// EVAL_BATCH=1 in the model client: the judge's calls through the Message Batches API of the local
// server (submit, in progress, ended with mixed outcomes), results merged into the one cache, half price.

const haiku = priceOf(loadPriceTable('evals/model-prices.json'), 'claude-haiku-4-5-20251001')!
const USAGE = { input_tokens: 1000, output_tokens: 100 }
const FULL = costUsd(haiku, { inputTokens: 1000, outputTokens: 100, cacheReadTokens: 0, cacheWriteTokens: 0 })

let server: MessagesServer
beforeAll(async () => {
  server = await startMessagesServer((r) => textReply(r, 'hello', { usage: USAGE }))
})
afterAll(() => server.close())
beforeEach(() => {
  server.resetStats()
  server.batchPlan = DEFAULT_BATCH_PLAN
  server.setResponder((r) => textReply(r, 'hello', { usage: USAGE }))
})

const batching = (pollMs = 5): BatchSettings => ({
  roles: ['judge'],
  transport: createSdkBatchTransport({ apiKey: TEST_API_KEY, baseURL: server.url }),
  pollMs,
})
const tempCache = () => tempDirs.make('model-cache-')
const cachedFiles = (dir: string) => readdirSync(dir).flatMap((shard) => readdirSync(join(dir, shard)))

describe('judge calls through the Message Batches API', () => {
  it('submits one batch, polls it while in progress, and on mixed outcomes uses, resends (expired, server errors) or fails (refused, canceled) each item', async () => {
    const plan: BatchItemOutcome[] = [
      'succeeded',
      { errored: { type: 'overloaded_error', message: 'Overloaded' } },
      { errored: { type: 'invalid_request_error', message: 'prompt is too long' } },
      'expired',
      'canceled',
      'succeeded',
    ]
    server.batchPlan = { pollsInProgress: 2, outcome: ({ index }) => plan[index]! }
    const cacheDir = tempCache()
    const progress: string[] = []
    const client = localClient(server, { cacheDir, batch: batching(), progress: (line) => progress.push(line) })
    const calls = plan.map((_, i) => textCall(`q-${i}`, `question ${i}`, 'judge:faithfulness'))
    const settled = await Promise.allSettled(calls.map((call) => client.call(call)))

    expect(server.batches).toHaveLength(1)
    expect(server.batches[0]!.requests).toHaveLength(6)
    // Three status polls (in progress, in progress, ended), and the one the SDK's results() makes for the results_url.
    expect(server.batches[0]!.polls).toBe(4)
    // Sent again as normal calls: the overloaded one and the expired one; never the refused one, nor the canceled one.
    expect(server.requests.map((r) => JSON.stringify(r.body.messages)).sort()).toEqual(
      [1, 3].map((i) => JSON.stringify([{ role: 'user', content: `question ${i}` }])).sort(),
    )
    const value = (i: number) => (settled[i] as PromiseFulfilledResult<ModelResult>).value
    for (const i of [0, 5]) expect(value(i)).toMatchObject({ source: 'api', batch: true, latencyMs: null, usd: FULL / 2 })
    for (const i of [1, 3]) expect(value(i)).toMatchObject({ source: 'api', batch: false, usd: FULL })
    const refused = (settled[2] as PromiseRejectedResult).reason as Error
    expect(refused).toBeInstanceOf(BatchItemError)
    expect(refused.message).toBe(
      'batch msgbatch_local_0001 item errored (invalid_request_error: prompt is too long); not sent again as a normal call, which would send the same request',
    )
    expect(((settled[4] as PromiseRejectedResult).reason as Error).message).toBe(
      'batch msgbatch_local_0001 item canceled; not sent again as a normal call, since someone canceled the batch',
    )

    const usage = client.ledger.usage()
    expect(usage.byRole.judge).toMatchObject({ calls: 4, batchCalls: 2 })
    expect(usage.usd).toBeCloseTo(2 * (FULL / 2) + 2 * FULL, 6)
    expect(usage.savedByBatch).toEqual({ calls: 2, usd: Math.round(FULL * 1e6) / 1e6 })
    expect(client.batches).toEqual([
      {
        id: 'msgbatch_local_0001',
        requests: 6,
        succeeded: 2,
        errored: 2,
        expired: 1,
        canceled: 1,
        resent: 2,
        failed: 2,
        polls: 3,
        wallMs: expect.any(Number),
      },
    ])
    expect(progress[0]).toMatch(
      /^batch msgbatch_local_0001: 6 judge request\(s\) submitted to the Message Batches API \(half price; worst case \$\d\.\d{4}\); polling every 5 ms$/,
    )
    expect(
      progress.filter((l) =>
        l.startsWith('batch msgbatch_local_0001: in progress · 6 processing, 0 succeeded, 0 errored, 0 expired'),
      ),
    ).toHaveLength(2)
    expect(progress).toContain(
      'batch msgbatch_local_0001: ended after ' + progress.find((l) => l.includes('ended after'))!.split('ended after ')[1],
    )
    expect(progress.filter((l) => l.endsWith('; sending it as a normal call (full price)'))).toHaveLength(2)
    expect(progress).toContain(
      'q-2 judge:faithfulness: batch msgbatch_local_0001 item errored (invalid_request_error: prompt is too long); not sent again (the same request would be refused again)',
    )

    // The answers landed in the one content-addressed cache: a run without batches finds them all.
    const plain = localClient(server, { cacheDir })
    server.resetStats()
    const again = await Promise.all(calls.filter((_, i) => i !== 2 && i !== 4).map((call) => plain.call(call)))
    expect(again.every((r) => r.source === 'cache')).toBe(true)
    expect(server.requests).toHaveLength(0)
  })

  it('calls that depend on answers form the next batch; the generator is never batched', async () => {
    const client = localClient(server, { batch: batching() })
    const dependent = client.call(textCall('q-1', 'first')).then(() => client.call(textCall('q-1', 'after the first')))
    const generator = client.call({ ...textCall('q-2', 'an answer'), role: 'generator' })
    await Promise.all([dependent, client.call(textCall('q-3', 'third')), generator])
    expect(server.batches.map((b) => b.requests.length)).toEqual([2, 1])
    expect(server.requests).toHaveLength(1)
  })

  it('EVAL_MAX_USD: a batch takes the items whose worst cases fit; the others wait for it to land and go in the next', async () => {
    server.setResponder((r) => textReply(r, 'hello'))
    const cacheDir = tempCache()
    const worst = worstCaseUsd(haiku, textCall().request, 0.5)
    const client = localClient(server, { cacheDir, batch: batching(), maxUsd: worst * 2.5 })
    const results = await Promise.all([1, 2, 3, 4].map((i) => client.call(textCall(`q-${i}`, `question ${i}`))))
    // Two worst cases fit beside each other, not three; once the first two have landed (at a fraction of
    // their worst case), the other two fit.
    expect(server.batches.map((b) => b.requests.length)).toEqual([2, 2])
    expect(results.every((r) => r.batch)).toBe(true)
    expect(client.spentUsd).toBeLessThan(worst * 2.5)
    expect(cachedFiles(cacheDir)).toHaveLength(4)
  })

  it('EVAL_MAX_USD: an item that cannot fit with nothing in flight stops the run; a batch submitted before is awaited and cached', async () => {
    server.setResponder((r) => textReply(r, 'hello'))
    const cacheDir = tempCache()
    const client = localClient(server, {
      cacheDir,
      batch: batching(),
      maxUsd: worstCaseUsd(haiku, textCall().request, 0.5) * 1.5,
    })
    const short = client.call(textCall('q-1', 'short'))
    // A request ten times as long: its worst case alone is over the cap.
    const long = client.call({ ...textCall('q-2', 'long'), request: { ...textCall().request, max_tokens: 640 } })
    const settled = await Promise.allSettled([short, long])
    expect(settled[0]).toMatchObject({ status: 'fulfilled', value: { batch: true } })
    expect((settled[1] as PromiseRejectedResult).reason).toBeInstanceOf(BudgetExceededError)
    expect(((settled[1] as PromiseRejectedResult).reason as Error).message).toMatch(
      /^EVAL_MAX_USD=\$0\.\d{4} reached: q-2 test \(claude-haiku-4-5-20251001\) was not sent/,
    )
    await expect(client.call(textCall('q-3', 'after'))).rejects.toThrow(
      /^q-3: test not sent: the run already failed \(EVAL_MAX_USD=/,
    )
    expect(server.batches.map((b) => b.requests.length)).toEqual([1])
    await client.drain()
    expect(cachedFiles(cacheDir)).toHaveLength(1)
  })
})

describe('the batch endpoints failing', () => {
  const status = (id: string, ended: boolean) => ({
    id,
    status: ended ? ('ended' as const) : ('in_progress' as const),
    counts: { processing: ended ? 0 : 1, succeeded: ended ? 1 : 0, errored: 0, canceled: 0, expired: 0 },
  })
  const apiError = (code: number, type: string) =>
    new APIError(code, { error: { type, message: `${type} happened` } }, undefined, new Headers())
  const withTransport = (transport: BatchTransport, extra: Partial<ModelClientOptions> = {}) =>
    localClient(server, {
      batch: { roles: ['judge'], transport, pollMs: 1 },
      retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 10 },
      ...extra,
    })

  it('retries a poll that failed with 503, then reads the results', async () => {
    let polls = 0
    const response = {
      id: 'msg_1',
      model: 'claude-haiku-4-5-20251001',
      stopReason: 'end_turn',
      content: [{ type: 'text' as const, text: 'ok' }],
      usage: { inputTokens: 10, outputTokens: 2, cacheReadTokens: 0, cacheWriteTokens: 0 },
    }
    const call = textCall()
    const client = withTransport({
      create: async () => ({ status: status('b1', false), scripted: true }),
      retrieve: async () => {
        polls += 1
        if (polls === 1) throw apiError(503, 'api_error')
        return status('b1', true)
      },
      results: async () => [{ customId: callKey(callParts(call)), type: 'succeeded', response }],
    })
    const result = await client.call(call)
    expect(polls).toBe(2)
    expect(result).toMatchObject({ batch: true, scripted: true, response: { id: 'msg_1' } })
  })

  it('a batch the API refuses to create fails the run, naming the batch API and each failure', async () => {
    const client = withTransport({
      create: async () => {
        throw apiError(400, 'invalid_request_error')
      },
      retrieve: async () => status('never', true),
      results: async () => [],
    })
    const error = (await client.call(textCall('q-9', 'x', 'judge:coverage')).catch((e: unknown) => e)) as Error
    expect(error).toBeInstanceOf(ModelCallError)
    expect(error.message).toBe(
      'q-9: judge:coverage (claude-haiku-4-5-20251001) failed: Message Batches API (batch (not created)): could not create a batch after 1 attempt(s): HTTP 400 invalid_request_error: invalid_request_error happened',
    )
    await expect(client.call(textCall('q-10'))).rejects.toThrow(/^q-10: test not sent: the run already failed/)
  })
})
