import { APIConnectionError, APIConnectionTimeoutError, APIError } from '@anthropic-ai/sdk'
import { describe, expect, it } from 'vitest'
import { JUDGE_PROMPTS, JUDGE_PROMPTS_HASH } from '../judge/prompts/index.ts'
import { FAITHFULNESS_PROMPT, FaithfulnessOutputSchema } from '../judge/dimensions/faithfulness.ts'
import { block, claimsBlock, defuse, materialBlock } from './delimit.ts'
import { callKey, callParts } from './exchange.ts'
import { normaliseMessage } from './model-types.ts'
import { assertPriced, costUsd, loadPriceTable, priceOf } from './prices.ts'
import { renderUser, templateHash, templatesHash, toolInputSchema } from './prompt-template.ts'
import { retryAfterMs, retryDelay } from '../common/backoff.ts'
import { describeFailure } from './retry-policy.ts'
import { textCall } from './testing/test-client.ts'
import { cacheNamespace } from './open-model-client.ts'
import { selfPreferenceWarning } from '../run/model-tier.ts'

const headers = (values: Record<string, string>) => new Headers(values)

describe('retry policy', () => {
  it('reads retry-after-ms, retry-after in seconds and as an HTTP date', () => {
    expect(retryAfterMs(headers({ 'retry-after-ms': '250' }))).toBe(250)
    expect(retryAfterMs(headers({ 'retry-after': '1.5' }))).toBe(1500)
    expect(retryAfterMs(headers({ 'retry-after': new Date(10_000).toUTCString() }), 4_000)).toBe(6_000)
    expect(retryAfterMs(headers({ 'retry-after': 'soon' }))).toBeNull()
    expect(retryAfterMs(headers({}))).toBeNull()
  })

  it('waits what the server asks (up to the cap), else backs off exponentially with jitter', () => {
    const policy = { maxRetries: 4, baseDelayMs: 100, maxDelayMs: 1_000 }
    expect(retryDelay(0, policy, 300)).toBe(300)
    expect(retryDelay(0, policy, 1_001)).toBeNull()
    expect(retryDelay(0, policy, null, () => 0)).toBe(50)
    expect(retryDelay(2, policy, null, () => 1)).toBe(400)
    expect(retryDelay(9, policy, null, () => 1)).toBe(1_000)
  })

  it('retries 408, 409, 429, 5xx, timeouts and dropped connections; not 400, 401, 403, 404', () => {
    const api = (status: number, extra: Record<string, string> = {}) =>
      new APIError(status, { error: { type: 'x', message: 'm' } }, undefined, headers(extra))
    for (const status of [408, 409, 429, 500, 502, 503, 529]) expect(describeFailure(api(status), 1).retryable).toBe(true)
    for (const status of [400, 401, 403, 404, 413]) expect(describeFailure(api(status), 1).retryable).toBe(false)
    expect(describeFailure(api(500, { 'x-should-retry': 'false' }), 1).retryable).toBe(false)
    expect(describeFailure(api(429, { 'retry-after': '2' }), 1)).toMatchObject({
      status: 429,
      retryAfterMs: 2000,
      description: 'HTTP 429 x: m',
    })
    expect(describeFailure(new APIConnectionTimeoutError(), 250)).toMatchObject({
      retryable: true,
      description: 'no response within the 250 ms timeout',
    })
    expect(describeFailure(new APIConnectionError({ cause: new Error('socket hang up') }), 1)).toMatchObject({
      retryable: true,
      description: 'connection failed: socket hang up',
    })
    expect(describeFailure(new TypeError('bug'), 1).retryable).toBe(false)
  })
})

describe('prices', () => {
  const table = loadPriceTable('evals/model-prices.json')
  it('the repository price table is valid and prices both default models; dated snapshots use their undated entry', () => {
    expect(priceOf(table, 'claude-haiku-4-5-20251001')).toEqual(table.models['claude-haiku-4-5'])
    expect(priceOf(table, 'claude-sonnet-5')).not.toBeNull()
    expect(priceOf(table, 'claude-haiku-4-5-latest')).toBeNull()
    expect(() => assertPriced(table, ['claude-sonnet-5', 'gpt-9'], 'prices.json')).toThrow(
      'prices.json: no price for gpt-9; add USD per million tokens',
    )
  })
  it('costs input, output, cache reads and writes at their own prices', () => {
    expect(
      costUsd(
        { input: 3, output: 15, cacheWrite: 3.75, cacheRead: 0.3 },
        { inputTokens: 1e6, outputTokens: 1e5, cacheReadTokens: 1e6, cacheWriteTokens: 2e5 },
      ),
    ).toBeCloseTo(3 + 1.5 + 0.3 + 0.75, 10)
  })
})

describe('delimiting untrusted text', () => {
  it('defuses text that imitates a data tag and leaves all else alone', () => {
    expect(defuse('a </material> b <chunk id="x"> c < 5 and <b>bold</b> </ Answer>')).toBe(
      'a ‹/material> b ‹chunk id="x"> c < 5 and <b>bold</b> ‹/ Answer>',
    )
    expect(block('question', 'Is </question> here?')).toBe('<question>\nIs ‹/question> here?\n</question>')
    expect(materialBlock([{ chunkId: 'd"1', text: 'x' }])).toBe('<material>\n<chunk id="d&quot;1">\nx\n</chunk>\n</material>')
    expect(claimsBlock(['One.', 'Two.'])).toBe(
      '<claims>\n<claim n="1">\nOne.\n</claim>\n<claim n="2">\nTwo.\n</claim>\n</claims>',
    )
  })
})

describe('prompt templates', () => {
  it('fill every slot and reject a missing or unused one', () => {
    expect(() => renderUser(FAITHFULNESS_PROMPT, { question: 'q' })).toThrow('judge-faithfulness: no value for {{material}}')
    expect(() => renderUser({ id: 't', version: 1, system: '', user: '{{a}}' }, { a: '1', b: '2' })).toThrow(
      't: unused slot(s) b',
    )
  })
  it('derive the tool input schema from zod, and hash text and schema so any edit shows', () => {
    const schema = toolInputSchema(FaithfulnessOutputSchema)
    expect(schema).toMatchObject({ type: 'object', required: ['verdicts'], additionalProperties: false })
    expect(schema.$schema).toBeUndefined()
    const edited = { ...FAITHFULNESS_PROMPT, system: `${FAITHFULNESS_PROMPT.system} ` }
    expect(templateHash(edited)).not.toBe(templateHash(FAITHFULNESS_PROMPT))
    expect(templatesHash([edited, ...JUDGE_PROMPTS.slice(1)])).not.toBe(JUDGE_PROMPTS_HASH)
  })
})

describe('call keys', () => {
  it('are stable and change with the model, the template, the schema, the inputs, the sample and the request', () => {
    const call = textCall()
    const key = callKey(callParts(call))
    expect(callKey(callParts(textCall()))).toBe(key)
    for (const changed of [
      { ...call, templateHash: 'other' },
      { ...call, schemaHash: 'schema' },
      { ...call, inputs: { text: 'other' } },
      { ...call, sample: 1 },
      { ...call, request: { ...call.request, max_tokens: 65 } },
      { ...call, request: { ...call.request, model: 'claude-sonnet-5' } },
    ]) {
      expect(callKey(callParts(changed))).not.toBe(key)
    }
  })
})

describe('responses', () => {
  it('keep text and tool calls, cache tokens as 0 when absent, and reject a body that is not a message', () => {
    const body = {
      id: 'm',
      type: 'message',
      model: 'x',
      stop_reason: 'tool_use',
      content: [
        { type: 'thinking', thinking: '' },
        { type: 'tool_use', id: 't', name: 'n', input: { a: 1 } },
      ],
      usage: { input_tokens: 3, output_tokens: 4 },
    }
    expect(normaliseMessage(body)).toEqual({
      id: 'm',
      model: 'x',
      stopReason: 'tool_use',
      content: [
        { type: 'other', kind: 'thinking' },
        { type: 'tool_use', id: 't', name: 'n', input: { a: 1 } },
      ],
      usage: { inputTokens: 3, outputTokens: 4, cacheReadTokens: 0, cacheWriteTokens: 0 },
    })
    expect(() => normaliseMessage({ type: 'message' })).toThrow(/^malformed Messages API response: id:/)
  })
})

describe('model tier helpers', () => {
  it('keep each server its own cache folder and warn when one model generates and judges', () => {
    expect(cacheNamespace('https://api.anthropic.com')).toBe('api.anthropic.com')
    expect(cacheNamespace('http://127.0.0.1:40123/')).toBe('127.0.0.1_40123')
    expect(selfPreferenceWarning({ generatorModel: 'a', judgeModel: 'b' })).toBeNull()
    expect(selfPreferenceWarning({ generatorModel: 'a', judgeModel: 'a' })).toMatch(/self-preference/)
  })
})
