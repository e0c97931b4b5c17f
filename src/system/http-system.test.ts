import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { InputError } from '../contract/input-error.ts'
import { createHttpSystem, type HttpSystemOptions } from './http-system.ts'
import { SystemError } from './system-error.ts'

/** Each request is answered by the next handler in the queue (the last one repeats); requests are recorded. */
type Handler = (request: IncomingMessage, response: ServerResponse, body: string) => void
let server: Server
let url: string
let handlers: Handler[] = []
let requests: { method: string | undefined; contentType: string | undefined; body: string }[] = []

const json =
  (status: number, value: unknown, headers: Record<string, string> = {}): Handler =>
  (_request, response) => {
    response.writeHead(status, { 'content-type': 'application/json', ...headers })
    response.end(typeof value === 'string' ? value : JSON.stringify(value))
  }

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString()))
    request.on('end', () => {
      requests.push({ method: request.method, contentType: request.headers['content-type'], body })
      const handler = handlers.length > 1 ? handlers.shift()! : handlers[0]!
      handler(request, response, body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rag`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
beforeEach(() => {
  handlers = []
  requests = []
})

/** One token per whitespace-separated word: sizes below are counted by hand. */
const countWords = (text: string) => text.split(/\s+/).filter(Boolean).length

const system = (overrides: Partial<HttpSystemOptions> = {}) =>
  createHttpSystem({
    url,
    // Generous: only a hang meets it (the timeout tests set their own, against a server that never answers).
    timeoutMs: 60_000,
    maxRetries: 2,
    retryBaseMs: 1,
    retryMaxMs: 1000,
    budgetTokens: 5,
    countTokens: countWords,
    ...overrides,
  })

const question = { id: 'q-007', question: 'Can I bring my dog?', userContext: { role: 'passenger' } }

describe('createHttpSystem: the request and a valid response', () => {
  it('POSTs the question as JSON and takes a full response as it is', async () => {
    const ranked = [
      { docId: 'pets', text: 'Dogs ride on the open deck.', chunkId: 'pets#intro', score: 2.5, tokens: 7 },
      { docId: 'tickets', text: 'Tickets are sold at the pier.', chunkId: 'tickets#0', score: 1.25, tokens: 8 },
    ]
    handlers = [
      json(200, { ranked, context: [ranked[0]], answer: 'Yes, on the open deck.', timingsMs: { retrieve: 4, generate: 12 } }),
    ]
    const answer = await system().answer(question)
    expect(requests).toEqual([{ method: 'POST', contentType: 'application/json', body: JSON.stringify(question) }])
    expect(answer).toEqual({
      ranked,
      context: [ranked[0]],
      answer: 'Yes, on the open deck.',
      // The adapter's own timing of the call, before the suite counts tokens.
      timingsMs: { retrieve: 4, generate: 12, call: expect.any(Number) },
    })
  })

  it('sends userContext null when the question has none', async () => {
    handlers = [json(200, { ranked: [] })]
    await system().answer({ id: 'q-1', question: 'Hi?', userContext: null })
    expect(JSON.parse(requests[0]!.body)).toEqual({ id: 'q-1', question: 'Hi?', userContext: null })
  })

  it("sends a follow-up question's history, oldest turn first, and no history field for a standalone question", async () => {
    handlers = [json(200, { ranked: [] })]
    const history = [
      { role: 'user' as const, content: 'What does the Pro plan cost?' },
      { role: 'assistant' as const, content: 'USD 49 a month.' },
    ]
    await system().answer({ id: 'q-2', question: 'And the Enterprise plan?', userContext: { tenant: 'acme' }, history })
    await system().answer({ id: 'q-3', question: 'Hi?', userContext: null })
    expect(requests.map((request) => request.body)).toEqual([
      '{"id":"q-2","question":"And the Enterprise plan?","userContext":{"tenant":"acme"},"history":[{"role":"user","content":"What does the Pro plan cost?"},{"role":"assistant","content":"USD 49 a month."}]}',
      '{"id":"q-3","question":"Hi?","userContext":null}',
    ])
  })

  it('fills a minimal response: chunk ids by position, descending scores, counted tokens, the context packed within the budget, no answer', async () => {
    // Word counts 2, 3, 1: the budget of 5 holds the first two (2 + 3 = 5); the third would make 6.
    handlers = [
      json(200, {
        ranked: [
          { docId: 'a', text: 'one two' },
          { docId: 'b', text: 'three four five' },
          { docId: 'a', text: 'six' },
        ],
      }),
    ]
    const answer = await system().answer(question)
    const expected = [
      { chunkId: 'a#0', docId: 'a', score: 3, tokens: 2, text: 'one two' },
      { chunkId: 'b#1', docId: 'b', score: 2, tokens: 3, text: 'three four five' },
      { chunkId: 'a#2', docId: 'a', score: 1, tokens: 1, text: 'six' },
    ]
    expect(answer).toEqual({ ranked: expected, context: expected.slice(0, 2), timingsMs: { call: expect.any(Number) } })
    expect('answer' in answer).toBe(false)
  })

  it('treats answer and context null as absent', async () => {
    handlers = [json(200, { ranked: [{ docId: 'a', text: 'one' }], context: null, answer: null })]
    expect(await system().answer(question)).toEqual({
      ranked: [{ chunkId: 'a#0', docId: 'a', score: 1, tokens: 1, text: 'one' }],
      context: [{ chunkId: 'a#0', docId: 'a', score: 1, tokens: 1, text: 'one' }],
      timingsMs: { call: expect.any(Number) },
    })
  })

  it('matches context items without chunkId to the ranked chunk with the same document and text', async () => {
    handlers = [
      json(200, {
        ranked: [
          { docId: 'a', text: 'one two' },
          { docId: 'b', text: 'three' },
        ],
        context: [
          { docId: 'b', text: 'three' },
          { docId: 'c', text: 'not ranked at all' },
        ],
        answer: 'three',
      }),
    ]
    const answer = await system().answer(question)
    expect(answer.context).toEqual([
      { chunkId: 'b#1', docId: 'b', score: 1, tokens: 1, text: 'three' },
      { chunkId: 'c#context-1', docId: 'c', score: 1, tokens: 4, text: 'not ranked at all' },
    ])
  })

  it('is named by its url unless given a name', () => {
    expect(system().name).toBe(url)
    expect(system({ name: 'ferry-rag' }).name).toBe('ferry-rag')
  })
})

describe('createHttpSystem: responses that break the contract', () => {
  const failure = async (response: unknown) => {
    handlers = [json(200, response)]
    return system()
      .answer(question)
      .then(
        () => null,
        (error: unknown) => error,
      )
  }

  it('names the field, what was expected and what came', async () => {
    const error = await failure({
      ranked: [
        { docId: 'a', text: 'x' },
        { docId: 'b', text: 'y' },
        { docId: 42, text: 'z' },
      ],
    })
    expect(error).toBeInstanceOf(SystemError)
    expect((error as SystemError).questionId).toBe('q-007')
    expect((error as Error).message).toBe(`q-007: ${url} answered ranked[2].docId: expected a string, got 42`)
  })

  it('names a missing field, a wrong top-level type, an unknown field and a bad token count', async () => {
    expect(((await failure({ answer: 'Yes.' })) as Error).message).toBe(
      `q-007: ${url} answered ranked: missing; expected an array of chunk objects`,
    )
    expect(((await failure([1, 2])) as Error).message).toBe(
      `q-007: ${url} answered the response: expected a JSON object {"ranked": [...], "context"?: [...], "answer"?: "..."}, got an array`,
    )
    expect(((await failure({ ranked: [], contexts: [] })) as Error).message).toBe(
      `q-007: ${url} answered the response: unknown field "contexts"; expected only ranked, context, stages, answer, citations, prompt, access, timingsMs, metadata`,
    )
    expect(((await failure({ ranked: [{ docId: 'a', text: 'x', tokens: 2.5 }], answer: 7 })) as Error).message).toBe(
      `q-007: ${url} answered ranked[0].tokens: expected a whole number of tokens; answer: expected a string, got 7`,
    )
  })

  it('lists three problems and counts the rest', async () => {
    const error = (await failure({ ranked: [{}, {}] })) as Error
    expect(error.message).toBe(
      `q-007: ${url} answered ranked[0].docId: missing; expected a string; ranked[0].text: missing; expected a string; ranked[1].docId: missing; expected a string; and 1 more`,
    )
  })

  it('says when the body is not JSON, with its start', async () => {
    handlers = [json(200, '<html>Bad gateway</html>')]
    await expect(system().answer(question)).rejects.toThrow(
      new SystemError(
        'q-007',
        `q-007: ${url} answered a body that is not JSON (Unexpected token '<', "<html>Bad "... is not valid JSON): <html>Bad gateway</html>`,
      ),
    )
    expect(requests).toHaveLength(1)
  })
})

describe('createHttpSystem: text that is not valid UTF-8, and chunks ranked twice', () => {
  /** A 200 whose body is these bytes, as a service with a Latin-1 string in it sends them. */
  const bytes =
    (body: Buffer): Handler =>
    (_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(body)
    }

  it('names the byte, its offset and the field it falls in, never replacing it with U+FFFD', async () => {
    // {"ranked":[{"docId":"cafe","text":"Caf\xE9 au lait"}]}: 0xE9 is Latin-1's é, alone it is no UTF-8 sequence.
    const head = Buffer.from('{"ranked":[{"docId":"cafe","text":"Caf')
    handlers = [bytes(Buffer.concat([head, Buffer.from([0xe9]), Buffer.from(' au lait"}]}')]))]
    await expect(system().answer(question)).rejects.toThrow(
      new SystemError(
        'q-007',
        `q-007: ${url} answered text that is not valid UTF-8: byte 0xE9 at byte offset ${head.length} of the body, in ranked[0].text; JSON must be sent as UTF-8 (it may be Latin-1 or Windows-1252)`,
      ),
    )
    // Not retried: the same service sends the same bytes again.
    expect(requests).toHaveLength(1)
  })

  it('names the offset alone when the body is not JSON either, and the key when the byte is in one', async () => {
    handlers = [bytes(Buffer.from([0x6f, 0x6b, 0xff]))]
    await expect(system().answer(question)).rejects.toThrow(
      `q-007: ${url} answered text that is not valid UTF-8: byte 0xFF at byte offset 2 of the body; JSON must be sent as UTF-8`,
    )
    const head = Buffer.from('{"ranked":[],"metadata":{"r')
    handlers = [bytes(Buffer.concat([head, Buffer.from([0xc3, 0x28]), Buffer.from('le":1}}')]))]
    await expect(system().answer(question)).rejects.toThrow(
      `answered text that is not valid UTF-8: byte 0xC3 at byte offset ${head.length} of the body, in a key of metadata;`,
    )
  })

  it('takes valid multi-byte text as it is', async () => {
    handlers = [json(200, { ranked: [{ docId: 'cafe', text: 'Café au lait ☕', chunkId: 'c', tokens: 3 }], context: [] })]
    expect((await system().answer(question)).ranked[0]?.text).toBe('Café au lait ☕')
  })

  it('a chunk id ranked twice is a SystemError naming the question and both places (a default id too)', async () => {
    handlers = [
      json(200, {
        ranked: [
          { docId: 'a', text: 'x', chunkId: 'a#1' },
          { docId: 'a', text: 'y' },
        ],
      }),
    ]
    await expect(system().answer(question)).rejects.toThrow(
      new SystemError(
        'q-007',
        `q-007: ${url} answered ranked[1].chunkId: "a#1" is ranked twice (first as ranked[0]); each chunk is ranked once`,
      ),
    )
  })
})

describe('createHttpSystem: failures and retries', () => {
  it('retries 503 and 429 and succeeds on the third attempt', async () => {
    handlers = [json(503, { error: 'warming up' }), json(429, 'slow down'), json(200, { ranked: [], answer: 'ok' })]
    expect(await system().answer(question)).toEqual({
      ranked: [],
      context: [],
      answer: 'ok',
      timingsMs: { call: expect.any(Number) },
    })
    expect(requests).toHaveLength(3)
  })

  it('gives up after maxRetries with the last status and body', async () => {
    handlers = [json(500, 'database is down')]
    await expect(system({ maxRetries: 2 }).answer(question)).rejects.toThrow(
      `q-007: ${url} answered HTTP 500: database is down (after 3 attempts)`,
    )
    expect(requests).toHaveLength(3)
  })

  it('does not retry a 4xx other than 408 and 429, and shows the first 200 characters of its body', async () => {
    handlers = [json(422, 'x'.repeat(250))]
    await expect(system().answer(question)).rejects.toThrow(`q-007: ${url} answered HTTP 422: ${'x'.repeat(200)}...`)
    expect(requests).toHaveLength(1)
  })

  it('retries 408', async () => {
    handlers = [json(408, ''), json(200, { ranked: [] })]
    await system().answer(question)
    expect(requests).toHaveLength(2)
  })

  it('waits as long as Retry-After (seconds) asks', async () => {
    handlers = [json(429, '', { 'retry-after': '1' }), json(200, { ranked: [] })]
    const started = Date.now()
    await system({ retryMaxMs: 5000 }).answer(question)
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000)
    expect(requests).toHaveLength(2)
  })

  it('stops when Retry-After (an HTTP date) asks for longer than retryMaxMs', async () => {
    handlers = [json(503, 'maintenance', { 'retry-after': new Date(Date.now() + 60_000).toUTCString() })]
    const error = await system({ retryMaxMs: 1000 })
      .answer(question)
      .then(
        () => new Error('answered'),
        (failure: unknown) => failure as Error,
      )
    const [, asked] =
      new RegExp(
        `^q-007: ${url} answered HTTP 503: maintenance and asked to wait (\\d+) ms \\(Retry-After\\), longer than retryMaxMs=1000$`,
      ).exec(error.message) ?? []
    // The date is a minute ahead (to the second); however long the request took, the wait asked is above the limit.
    expect(Number(asked)).toBeGreaterThan(1000)
    expect(Number(asked)).toBeLessThanOrEqual(60_000)
    expect(requests).toHaveLength(1)
  })

  it('retries a timeout and then names it', async () => {
    handlers = [() => undefined] // never answers; the server closes the socket when the client aborts
    await expect(system({ timeoutMs: 100, maxRetries: 1 }).answer(question)).rejects.toThrow(
      `q-007: ${url} did not answer within 100 ms (after 2 attempts)`,
    )
    expect(requests).toHaveLength(2)
  })

  it('retries a dropped connection and then names it', async () => {
    handlers = [(request) => request.socket.destroy()]
    await expect(system({ maxRetries: 1 }).answer(question)).rejects.toThrow(
      new RegExp(`^q-007: ${url} could not be reached \\(.*\\) \\(after 2 attempts\\)$`),
    )
    expect(requests).toHaveLength(2)
  })

  it('refuses a url that is not an http URL', () => {
    expect(() => system({ url: 'localhost:8000' })).toThrow(
      new InputError('HTTP system url localhost:8000: expected an http:// or https:// URL'),
    )
    expect(() => system({ url: 'not a url' })).toThrow(
      new InputError('HTTP system url "not a url" is not a URL; expected e.g. http://127.0.0.1:8000/rag'),
    )
  })
})
