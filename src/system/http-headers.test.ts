import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { createServer as createNetServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { registerSecret } from '../common/secrets.ts'
import { createHttpSystem } from './http-system.ts'
import { startService } from './service-launcher.ts'
import { SystemError } from './system-error.ts'

// A service behind an API key that echoes the request's headers into what it answers: the worst case for a leak.
const SECRET = 'sk-staging-7f3c9a1e5b'
const AUTHORIZATION = `Bearer ${SECRET}`
registerSecret(AUTHORIZATION)
registerSecret(SECRET)

type Reply = (headers: IncomingHttpHeaders) => { status: number; body: string }
let server: Server
let url: string
let reply: Reply
let received: IncomingHttpHeaders[] = []

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      received.push(request.headers)
      const { status, body } = reply(request.headers)
      response.writeHead(status, { 'content-type': 'application/json' })
      response.end(body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rag`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))
beforeEach(() => {
  received = []
})

const system = () =>
  createHttpSystem({
    url,
    headers: { Authorization: AUTHORIZATION, 'X-Tenant': 'acme' },
    timeoutMs: 60_000,
    maxRetries: 1,
    retryBaseMs: 1,
    retryMaxMs: 1000,
    budgetTokens: 100,
    countTokens: (text) => text.split(/\s+/).filter(Boolean).length,
  })
const question = { id: 'q-007', question: 'Can I bring my dog?', userContext: null }

/** The SystemError a question fails with. */
async function failure(): Promise<SystemError> {
  const error = await system()
    .answer(question)
    .then(
      () => null,
      (thrown: unknown) => thrown,
    )
  expect(error).toBeInstanceOf(SystemError)
  return error as SystemError
}

/** Whether any 6 characters of the secret in a row appear in the text: a secret cut by an excerpt still leaks. */
const holdsAPieceOfTheSecret = (text: string) =>
  Array.from({ length: SECRET.length - 5 }, (_, at) => SECRET.slice(at, at + 6)).some((piece) => text.includes(piece))

describe('an HTTP system with headers', () => {
  it("sends the configured headers with every request, beside the contract's own", async () => {
    reply = () => ({ status: 200, body: '{"ranked":[]}' })
    await system().answer(question)
    expect(received).toHaveLength(1)
    expect(received[0]).toMatchObject({
      authorization: AUTHORIZATION,
      'x-tenant': 'acme',
      'content-type': 'application/json',
      accept: 'application/json',
    })
  })

  it('redacts the secret from an error body before the 200-character excerpt is cut, after its retries too', async () => {
    // The secret straddles the excerpt's end: cut first, its first 12 characters would survive.
    reply = (headers) => ({ status: 503, body: `${'x'.repeat(183)} got ${headers.authorization} tail` })
    const error = await failure()
    expect(received).toHaveLength(2)
    expect(error.message).toBe(`q-007: ${url} answered HTTP 503: ${'x'.repeat(183)} got [REDACTED] t... (after 2 attempts)`)
    expect(holdsAPieceOfTheSecret(error.message)).toBe(false)
  })

  it('redacts a 401 body that echoes every header as JSON', async () => {
    reply = (headers) => ({ status: 401, body: JSON.stringify({ error: 'bad key', headers }) })
    const error = await failure()
    expect(error.message).toContain('"authorization":"[REDACTED]"')
    expect(holdsAPieceOfTheSecret(error.message)).toBe(false)
  })

  it('redacts a body that is not JSON, and a value a schema error previews', async () => {
    reply = (headers) => ({ status: 200, body: `<html>key ${headers.authorization}</html>` })
    expect((await failure()).message).toMatch(/answered a body that is not JSON \(.*\): <html>key \[REDACTED\]<\/html>$/)
    reply = (headers) => ({ status: 200, body: JSON.stringify({ ranked: [], timingsMs: { retrieve: headers.authorization } }) })
    expect((await failure()).message).toBe(
      `q-007: ${url} answered timingsMs.retrieve: expected a number of milliseconds, got "[REDACTED]"`,
    )
  })

  it('redacts an answer that echoes the secret, escaped or not: it never reaches a report, a prompt or a cache key', async () => {
    reply = () => ({
      status: 200,
      // \u002d is "-": the text holds no secret, the parsed value does.
      body: `{"ranked":[{"docId":"d","text":"token ${SECRET.replace('-', '\\u002d')}"}],"answer":"Your key is ${AUTHORIZATION}."}`,
    })
    const answer = await system().answer(question)
    expect(answer.answer).toBe('Your key is [REDACTED].')
    expect(answer.ranked.map((chunk) => chunk.text)).toEqual(['token [REDACTED]'])
    expect(holdsAPieceOfTheSecret(JSON.stringify(answer))).toBe(false)
  })
})

/** A port nobody listens on (the OS picks it, we release it). */
async function freePort(): Promise<number> {
  const free = createNetServer()
  await new Promise<void>((resolve) => free.listen(0, '127.0.0.1', resolve))
  const { port } = free.address() as AddressInfo
  await new Promise<void>((resolve) => free.close(() => resolve()))
  return port
}

describe('a service that prints its secret', () => {
  it('has its lines redacted as they arrive: in the log, and in the last output an error quotes', async () => {
    const port = await freePort()
    const lines: string[] = []
    const command = 'echo "request headers: Authorization: $RAG_KEY"; exit 3'
    const error = await startService({
      command,
      url: `http://127.0.0.1:${port}/rag`,
      cwd: tmpdir(),
      env: { RAG_KEY: AUTHORIZATION },
      log: (line) => lines.push(line),
    }).then(
      () => null,
      (thrown: unknown) => thrown as Error,
    )
    expect(error?.message).toBe(
      `service ${JSON.stringify(command)} exited with code 3 before it answered at http://127.0.0.1:${port}/; last output:\n  request headers: Authorization: [REDACTED]`,
    )
    expect(lines).toEqual(['[service] request headers: Authorization: [REDACTED]'])
  })
})
