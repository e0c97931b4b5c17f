import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ModelCallError } from './model-errors.ts'
import { responseText, type MessageRequest } from './model-types.ts'
import { createSdkTransport, type MessagesTransport } from './sdk-transport.ts'
import {
  errorReply,
  startMessagesServer,
  textReply,
  type MessagesServer,
  type Responder,
  type ScriptedReply,
} from '../model-server/messages-server.ts'
import { localClient, TEST_API_KEY, textCall } from './testing/test-client.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'

/** Temp folders of this file's tests, removed after each test. */
const tempDirs = useTempDirs()

let server: MessagesServer
const ok: Responder = (request) =>
  textReply(request, 'hello', {
    usage: { input_tokens: 1000, output_tokens: 200, cache_read_input_tokens: 300, cache_creation_input_tokens: 100 },
  })

/** Replies with each scripted failure in turn (one per request), then succeeds. */
function failing(...failures: ScriptedReply[]): Responder {
  let n = 0
  return (request) => failures[n++] ?? ok(request)
}

/**
 * Scripted failures by the client's attempt (not by the request's arrival: a request given up before the server
 * read it would shift the script), then success; the SDK transport to the local server records the timeout the
 * client gives each attempt. An attempt the server hangs on gets 100 ms instead: a hang meets any timeout, so
 * waiting out the client's would prove nothing more, while the other attempts keep the client's generous one,
 * so no answer meets it however slow the machine.
 */
function failingByAttempt(...failures: ScriptedReply[]): MessagesTransport & { timeouts: number[] } {
  const sdk = createSdkTransport({ apiKey: TEST_API_KEY, baseURL: server.url })
  const timeouts: number[] = []
  server.setResponder((request) => failures[timeouts.length - 1] ?? ok(request))
  return Object.assign(
    (request: MessageRequest, timeoutMs: number) => {
      const attempt = timeouts.push(timeoutMs) - 1
      return sdk(request, failures[attempt]?.kind === 'hang' ? 100 : timeoutMs)
    },
    { timeouts },
  )
}

beforeAll(async () => {
  server = await startMessagesServer(ok)
})
afterAll(() => server.close())
beforeEach(() => {
  server.resetStats()
  server.latencyMs = 0
  server.setResponder(ok)
})

describe('the model client against the local Messages API server', () => {
  it('succeeds, and accounts tokens (cache reads and writes apart), USD from the price table and latency', async () => {
    const client = localClient(server)
    const result = await client.call(textCall())
    expect(responseText(result.response)).toBe('hello')
    expect(result).toMatchObject({ source: 'api', retries: 0, scripted: true })
    expect(result.latencyMs).toBeGreaterThan(0)
    // claude-haiku-4-5 (via its dated id): $1 in, $5 out, $0.10 cache read, $1.25 cache write per million.
    const usd = (1000 * 1 + 200 * 5 + 300 * 0.1 + 100 * 1.25) / 1e6
    expect(result.usd).toBeCloseTo(usd, 12)
    const usage = client.ledger.usage()
    expect(usage).toMatchObject({
      calls: 1,
      cacheHits: 0,
      inputTokens: 1000,
      outputTokens: 200,
      cacheReadTokens: 300,
      cacheWriteTokens: 100,
      usd: Math.round(usd * 1e6) / 1e6,
    })
    expect(usage.byRole.judge.calls).toBe(1)
    expect(usage.byRole.generator.calls).toBe(0)
  })

  it('honours retry-after on 429 (not its own backoff)', async () => {
    server.setResponder(
      failing(errorReply(429, 'rate_limit_error', 'Number of requests has exceeded your rate limit', { 'retry-after': '0.15' })),
    )
    // The backoff would wait 10 s: the wait the client chose (recorded, then really slept) is retry-after's.
    const waits: number[] = []
    const sleep = (ms: number) => (waits.push(ms), new Promise<void>((resolve) => setTimeout(resolve, ms)))
    const client = localClient(server, { retry: { maxRetries: 2, baseDelayMs: 10_000, maxDelayMs: 10_000 }, sleep })
    const result = await client.call(textCall())
    expect(waits).toEqual([150])
    const waited = server.requests[1]!.receivedAt - server.requests[0]!.receivedAt
    expect(waited).toBeGreaterThanOrEqual(140)
    expect(result.retries).toBe(1)
    expect(client.ledger.usage().retries).toBe(1)
  })

  it('retries 529 overloaded (retry-after-ms honoured) and 500 (backoff)', async () => {
    server.setResponder(
      failing(
        errorReply(529, 'overloaded_error', 'Overloaded', { 'retry-after-ms': '30' }),
        errorReply(500, 'api_error', 'Internal server error'),
      ),
    )
    const result = await localClient(server).call(textCall())
    expect(result.retries).toBe(2)
    expect(server.requests).toHaveLength(3)
    // Our policy owns retries: the SDK's are off (its retry count header stays 0 on every attempt).
    expect(server.requests.map((r) => r.sdkRetryCount)).toEqual([0, 0, 0])
  })

  it('retries after a timeout and after a dropped connection', async () => {
    const transport = failingByAttempt({ kind: 'hang' }, { kind: 'drop' })
    const result = await localClient(server, { timeoutMs: 5_000, transport }).call(textCall())
    expect(responseText(result.response)).toBe('hello')
    expect(result.retries).toBe(2)
    expect(transport.timeouts).toEqual([5_000, 5_000, 5_000])
  })

  it('gives up after maxRetries with an error naming the question, the call, the attempts and each failure', async () => {
    server.setResponder(() => errorReply(529, 'overloaded_error', 'Overloaded'))
    const error = await localClient(server, { retry: { maxRetries: 2, baseDelayMs: 1, maxDelayMs: 10 } })
      .call(textCall('q-042', 'x', 'judge:faithfulness'))
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ModelCallError)
    expect((error as Error).message).toBe(
      'q-042: judge:faithfulness (claude-haiku-4-5-20251001) failed after 3 attempts (EVAL_MAX_RETRIES=2): HTTP 529 overloaded_error: Overloaded (x3)',
    )
  })

  it('names a timeout and a dropped connection in the final error', async () => {
    const transport = failingByAttempt({ kind: 'hang' }, { kind: 'drop' }, { kind: 'hang' })
    const error = await localClient(server, {
      timeoutMs: 5_000,
      transport,
      retry: { maxRetries: 1, baseDelayMs: 1, maxDelayMs: 10 },
    })
      .call(textCall('q-007'))
      .catch((e: unknown) => e as Error)
    expect((error as Error).message).toMatch(
      /^q-007: test \(claude-haiku-4-5-20251001\) failed after 2 attempts \(EVAL_MAX_RETRIES=1\): no response within the 5000 ms timeout; connection failed/,
    )
    expect(transport.timeouts).toEqual([5_000, 5_000])
  })

  it('does not retry a 400 or a 401, and says what to check', async () => {
    server.setResponder(() => errorReply(401, 'authentication_error', 'invalid x-api-key'))
    const error = await localClient(server)
      .call(textCall())
      .catch((e: unknown) => e as Error)
    expect((error as Error).message).toBe(
      'q-001: test (claude-haiku-4-5-20251001) failed after 1 attempt (not retryable): HTTP 401 authentication_error: invalid x-api-key (check ANTHROPIC_API_KEY)',
    )
    expect(server.requests).toHaveLength(1)
  })

  it('stops when the server asks to wait longer than retryMaxMs', async () => {
    server.setResponder(() => errorReply(429, 'rate_limit_error', 'slow down', { 'retry-after': '120' }))
    const error = await localClient(server, { retry: { maxRetries: 3, baseDelayMs: 1, maxDelayMs: 5_000 } })
      .call(textCall())
      .catch((e: unknown) => e as Error)
    expect((error as Error).message).toContain('the server asked to wait 120000 ms, longer than retryMaxMs=5000')
    expect(server.requests).toHaveLength(1)
  })

  it('never has more requests in flight than the concurrency limit (the server counts)', async () => {
    // The server answers a round only once three requests wait (a latency could let one finish before the
    // third arrives on a busy machine): the limit is reached each round, and a fourth would be counted.
    const waiting: (() => void)[] = []
    server.setResponder(async (request) => {
      await new Promise<void>((resolve) => {
        waiting.push(resolve)
        if (waiting.length === 3) for (const answer of waiting.splice(0)) answer()
      })
      return ok(request)
    })
    const client = localClient(server, { concurrency: 3 })
    await Promise.all(Array.from({ length: 12 }, (_, i) => client.call(textCall(`q-${i}`, `question ${i}`))))
    expect(server.requests).toHaveLength(12)
    expect(server.maxInFlight).toBe(3)
  })

  it('shares one request between identical calls in flight at the same time', async () => {
    server.latencyMs = 30
    const client = localClient(server)
    const [a, b] = await Promise.all([client.call(textCall('q-001')), client.call(textCall('q-001'))])
    expect(server.requests).toHaveLength(1)
    expect([a.source, b.source].sort()).toEqual(['api', 'cache'])
    expect(client.ledger.usage()).toMatchObject({ calls: 1, cacheHits: 1 })
  })

  it('keeps the API key out of every error message', async () => {
    server.setResponder(() => errorReply(400, 'invalid_request_error', `bad key ${TEST_API_KEY}`))
    const error = await localClient(server)
      .call(textCall())
      .catch((e: unknown) => e as Error)
    expect((error as Error).message).toContain('[redacted]')
    expect((error as Error).message).not.toContain(TEST_API_KEY)
  })
})

describe('the disk cache', () => {
  it('makes an unchanged rerun free: zero requests, hits counted apart, no cost, no latency', async () => {
    const cacheDir = tempDirs.make('model-cache-')
    const first = localClient(server, { cacheDir })
    await first.call(textCall('q-001', 'one'))
    await first.call(textCall('q-002', 'two'))
    const second = localClient(server, { cacheDir })
    const results = await Promise.all([second.call(textCall('q-001', 'one')), second.call(textCall('q-002', 'two'))])
    expect(server.requests).toHaveLength(2)
    expect(results.map((r) => [r.source, r.usd, r.latencyMs])).toEqual([
      ['cache', 0, null],
      ['cache', 0, null],
    ])
    const usage = second.ledger.usage()
    expect(usage).toMatchObject({ calls: 0, cacheHits: 2, usd: 0, inputTokens: 0 })
    expect(usage.savedByCache.inputTokens).toBe(2000)
    expect(second.ledger.latencies('judge')).toEqual([])
    // Content-addressed files, sharded by the key's first two hex digits; no credential in them.
    const shards = readdirSync(cacheDir)
    expect(shards.every((s) => /^[0-9a-f]{2}$/.test(s))).toBe(true)
    for (const shard of shards)
      for (const file of readdirSync(join(cacheDir, shard)))
        expect(readFileSync(join(cacheDir, shard, file), 'utf8')).not.toContain(TEST_API_KEY)
  })

  it('a changed input, model or sample is another key; refresh rewrites, off neither reads nor writes', async () => {
    const cacheDir = tempDirs.make('model-cache-')
    const client = localClient(server, { cacheDir })
    await client.call(textCall('q-001', 'one'))
    await client.call(textCall('q-001', 'one, changed'))
    await client.call({ ...textCall('q-001', 'one'), sample: 1 })
    await client.call({
      ...textCall('q-001', 'one'),
      request: { ...textCall().request, model: 'claude-sonnet-5', messages: [{ role: 'user', content: 'one' }] },
    })
    expect(server.requests).toHaveLength(4)
    await localClient(server, { cacheDir, cacheMode: 'refresh' }).call(textCall('q-001', 'one'))
    await localClient(server, { cacheDir, cacheMode: 'off' }).call(textCall('q-001', 'one'))
    expect(server.requests).toHaveLength(6)
    await localClient(server, { cacheDir }).call(textCall('q-001', 'one'))
    expect(server.requests).toHaveLength(6)
  })
})

describe('failing fast', () => {
  it('sends nothing more once a call has failed for good: queued calls are cancelled, not paid for', async () => {
    server.latencyMs = 20
    server.setResponder((request) => (request.index === 0 ? errorReply(401, 'authentication_error', 'invalid key') : ok(request)))
    const client = localClient(server, { concurrency: 1 })
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => client.call(textCall(`q-${i}`, `question ${i}`))),
    )
    expect(server.requests).toHaveLength(1)
    expect(results.map((r) => r.status)).toEqual(Array(6).fill('rejected'))
    expect(((results[5] as PromiseRejectedResult).reason as Error).message).toBe(
      'q-5: test not sent: the run already failed (q-0: test (claude-haiku-4-5-20251001) failed after 1 attempt (not retryable): HTTP 401 authentication_error: invalid key (check ANTHROPIC_API_KEY))',
    )
  })
})
