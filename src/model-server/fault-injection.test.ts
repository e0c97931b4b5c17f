import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { callStructured } from '../model/structured-call.ts'
import { ModelCallError } from '../model/model-errors.ts'
import { responseText } from '../model/model-types.ts'
import type { ToolTemplate } from '../model/prompt-template.ts'
import { faultHits, parseFaultSpec, RATE_LIMIT_RETRY_AFTER_S, withFaults } from './fault-injection.ts'
import { textReply, toolUseReply, type Responder } from './messages-server.ts'
import { localClient, textCall } from '../model/testing/test-client.ts'
import { useScriptedServer } from '../model/testing/use-scripted-server.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'

const local = useScriptedServer()
const temps = useTempDirs()

describe('parseFaultSpec', () => {
  it('reads kinds with every and after, several rules in order', () => {
    expect(parseFaultSpec('429:every=3')).toEqual([{ kind: '429', every: 3, after: 0 }])
    expect(parseFaultSpec('529')).toEqual([{ kind: '529', every: 1, after: 0 }])
    expect(parseFaultSpec('hang:after=4:every=2, drop,text-instead-of-tool:every=5')).toEqual([
      { kind: 'hang', every: 2, after: 4 },
      { kind: 'drop', every: 1, after: 0 },
      { kind: 'text-instead-of-tool', every: 5, after: 0 },
    ])
  })

  it.each([
    ['4xx', 'unknown fault "4xx"; expected one of 429, 529, 500, hang, drop, malformed-tool, text-instead-of-tool'],
    ['', 'empty fault spec; expected kind[:every=N][:after=N][,kind...]'],
    ['429,', 'fault "": empty fault; expected kind[:every=N][:after=N][,kind...]'],
    ['429:evry=3', 'unknown option "evry"; expected every=N or after=N'],
    ['429:every', 'every: expected every=N, N a whole number >= 1'],
    ['429:every=0', 'every=0: expected every=N, N a whole number >= 1'],
    ['429:every=1.5', 'every=1.5: expected every=N, N a whole number >= 1'],
    ['429:after=-1', 'after=-1: expected after=N, N a whole number >= 0'],
    ['429:every=2:every=3', 'every given twice'],
    ['529,drop:every=x', 'fault "drop:every=x": every=x: expected every=N, N a whole number >= 1'],
  ])('rejects %j: %s', (spec, message) => {
    expect(() => parseFaultSpec(spec)).toThrow(message)
  })

  it('hits request n when n > after and (n - after) is a multiple of every', () => {
    const hits = (spec: string) => [...Array(10).keys()].map((i) => i + 1).filter((n) => faultHits(parseFaultSpec(spec)[0]!, n))
    expect(hits('429:every=3')).toEqual([3, 6, 9])
    expect(hits('429:every=3:after=2')).toEqual([5, 8])
    expect(hits('drop:after=7')).toEqual([8, 9, 10])
  })
})

// The model client (real SDK) against the local server with each fault injected.
const ok: Responder = (request) => textReply(request, 'hello', { usage: { input_tokens: 100, output_tokens: 10 } })
const inject = (spec: string, base: Responder = ok) => local.server.setResponder(withFaults(base, parseFaultSpec(spec)))
const failureOf = (promise: Promise<unknown>): Promise<ModelCallError> =>
  promise.then(
    () => {
      throw new Error('expected the call to fail')
    },
    (error: unknown) => error as ModelCallError,
  )

describe('the model client through injected faults', () => {
  it('429:every=2: the second request is rate-limited, retried after the retry-after it carries, and counted', async () => {
    inject('429:every=2')
    const client = localClient(local.server, { concurrency: 1, retry: { maxRetries: 2, baseDelayMs: 5, maxDelayMs: 5_000 } })
    expect((await client.call(textCall('q-001'))).retries).toBe(0)
    const second = await client.call(textCall('q-002'))
    expect(second.retries).toBe(1)
    expect(responseText(second.response)).toBe('hello')
    const [, limited, retried] = local.server.requests
    expect(retried!.receivedAt - limited!.receivedAt).toBeGreaterThanOrEqual(RATE_LIMIT_RETRY_AFTER_S * 1000 - 10)
    expect(local.server.requests).toHaveLength(3)
    expect(client.ledger.usage().retries).toBe(1)
  })

  it.each([
    ['529', 'HTTP 529 overloaded_error: Overloaded (injected fault) (x3)'],
    ['500', 'HTTP 500 api_error: Internal server error (injected fault) (x3)'],
  ])('%s on every request: retried up to EVAL_MAX_RETRIES, then an error naming each failure', async (spec, failures) => {
    inject(spec)
    const client = localClient(local.server, { retry: { maxRetries: 2, baseDelayMs: 5, maxDelayMs: 50 } })
    const error = await failureOf(client.call(textCall('q-007')))
    expect(error).toBeInstanceOf(ModelCallError)
    expect(error.message).toBe(
      `q-007: test (claude-haiku-4-5-20251001) failed after 3 attempts (EVAL_MAX_RETRIES=2): ${failures}`,
    )
    expect(error.attempts).toBe(3)
    expect(local.server.requests).toHaveLength(3)
  })

  it('hang: the client times out each attempt and says so', async () => {
    inject('hang')
    const client = localClient(local.server, { timeoutMs: 150, retry: { maxRetries: 1, baseDelayMs: 5, maxDelayMs: 50 } })
    const error = await failureOf(client.call(textCall('q-003')))
    expect(error.message).toBe(
      'q-003: test (claude-haiku-4-5-20251001) failed after 2 attempts (EVAL_MAX_RETRIES=1): no response within the 150 ms timeout (x2)',
    )
    expect(local.server.requests).toHaveLength(2)
  })

  it('drop: a destroyed connection is retried, and a call that then succeeds counts the retry', async () => {
    inject('drop:every=2')
    const client = localClient(local.server, { concurrency: 1, retry: { maxRetries: 1, baseDelayMs: 5, maxDelayMs: 50 } })
    await client.call(textCall('q-001'))
    const second = await client.call(textCall('q-002'))
    expect(second.retries).toBe(1)
    expect(local.server.requests).toHaveLength(3)
  })

  it('drop on every request: the error says the connection failed', async () => {
    inject('drop')
    const error = await failureOf(
      localClient(local.server, { retry: { maxRetries: 1, baseDelayMs: 5, maxDelayMs: 50 } }).call(textCall('q-004')),
    )
    expect(error.message).toMatch(
      /^q-004: test \(claude-haiku-4-5-20251001\) failed after 2 attempts \(EVAL_MAX_RETRIES=1\): connection failed: [^;]+ \(x2\)$/,
    )
  })

  describe('the tool faults: a structured call (forced tool use) gets its one repair attempt, then a judge error', () => {
    const template: ToolTemplate = {
      id: 'test-verdict',
      version: 1,
      system: 'Judge the claim.',
      user: '{{claim}}',
      tool: {
        name: 'record_verdict',
        description: 'Records the verdict.',
        schema: z.object({ supported: z.boolean() }).strict(),
      },
    }
    const verdict: Responder = (request) => (request.body.tools ? toolUseReply(request, { supported: true }) : ok(request))
    const spec = {
      template,
      role: 'judge' as const,
      subject: 'q-005',
      purpose: 'judge:test',
      model: 'claude-haiku-4-5-20251001',
      maxTokens: 64,
      user: 'The sky is blue.',
      inputs: { claim: 'The sky is blue.' },
    }

    it('malformed-tool: the tool input fails its schema twice', async () => {
      inject('malformed-tool', verdict)
      const outcome = await callStructured(localClient(local.server), spec)
      const problem =
        'invalid record_verdict input: supported: Invalid input: expected boolean, received undefined; (input): Unrecognized key: "unexpected"'
      expect(outcome).toEqual({ ok: false, error: `${problem}; after one repair attempt: ${problem}` })
      expect(local.server.requests).toHaveLength(2)
    })

    it('malformed-tool:every=2 leaves the first call alone and the repair of the second succeeds', async () => {
      inject('malformed-tool:every=2', verdict)
      const client = localClient(local.server, { concurrency: 1 })
      expect(await callStructured(client, spec)).toEqual({ ok: true, output: { supported: true }, repaired: false })
      expect(
        await callStructured(client, { ...spec, subject: 'q-006', user: 'Water is wet.', inputs: { claim: 'Water is wet.' } }),
      ).toEqual({ ok: true, output: { supported: true }, repaired: true })
    })

    it('a malformed output is not cached: the rerun against a healthy server asks again and gets a verdict', async () => {
      const cacheDir = temps.make('fault-cache-')
      inject('malformed-tool', verdict)
      expect(await callStructured(localClient(local.server, { cacheDir }), spec)).toMatchObject({ ok: false })
      expect(local.server.requests).toHaveLength(2)
      local.server.setResponder(verdict)
      const healthy = localClient(local.server, { cacheDir })
      expect(await callStructured(healthy, spec)).toEqual({ ok: true, output: { supported: true }, repaired: false })
      expect(local.server.requests).toHaveLength(3)
      // The valid one is cached: a third run sends nothing.
      expect(await callStructured(localClient(local.server, { cacheDir }), spec)).toMatchObject({ ok: true })
      expect(local.server.requests).toHaveLength(3)
    })

    it('text-instead-of-tool: no tool call, named with the stop reason', async () => {
      inject('text-instead-of-tool', verdict)
      const outcome = await callStructured(localClient(local.server), spec)
      expect(outcome).toEqual({
        ok: false,
        error:
          'no call of record_verdict (stop reason end_turn); after one repair attempt: no call of record_verdict (stop reason end_turn)',
      })
    })

    it('leave a request that forces no tool alone', async () => {
      inject('malformed-tool,text-instead-of-tool', verdict)
      expect(responseText((await localClient(local.server).call(textCall())).response)).toBe('hello')
    })
  })
})
