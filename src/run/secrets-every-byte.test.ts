import { randomBytes } from 'node:crypto'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join, relative, resolve } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ragEvalInProcess } from '../cli/testing/rag-eval-in-process.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'

// A careless service, as an attacker would want it: it echoes the key it is sent in every common encoding, in
// answers, chunk texts, metadata and an error body. Here, not in the shared module graph: the run registers secrets.
const temp = useTempDirs()
let server: Server
let url: string
const received: string[] = []

/** The encodings a service may echo a key in, worked out here as the service does (Node's encoders), by name. */
function encodings(key: string): Record<string, string> {
  const bytes = Buffer.from(key)
  return {
    raw: key,
    base64: bytes.toString('base64'),
    base64url: bytes.toString('base64url'),
    url: encodeURIComponent(key),
    hex: bytes.toString('hex'),
    HEX: bytes.toString('hex').toUpperCase(),
    // Basic auth: the key inside a longer base64 text, at another byte alignment.
    basic: Buffer.from(`user:${key}`).toString('base64'),
  }
}
const echo = (key: string) =>
  Object.entries(encodings(key))
    .map(([name, form]) => `${name}=${form}`)
    .join(' ')

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString()))
    request.on('end', () => {
      const key = (request.headers.authorization ?? '').replace(/^Bearer /, '')
      received.push(key)
      const { id } = JSON.parse(body) as { id: string }
      if (id === 'g-2') {
        response.writeHead(503, { 'content-type': 'text/plain' })
        return response.end(`upstream refused ${echo(key)}`)
      }
      const text = `Traces are kept for 15 days on Team and 30 days on Business. ${echo(key)}`
      const chunk = { docId: 't-001', text, metadata: { authorization: request.headers.authorization, echo: echo(key) } }
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end(JSON.stringify({ ranked: id === 'g-3' ? [] : [chunk], answer: `30 days (served for ${echo(key)})` }))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rag`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

/** Every file under `dir`, relative to it. */
const filesUnder = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))

describe('a service that echoes its key in every encoding', () => {
  it('leaves no encoding of any key in a byte written or printed by rag-eval eval and rag-eval compare --a-env/--b-env', async () => {
    const dir = temp.make('secrets-every-byte-')
    const config = join(dir, 'rag-eval.config.ts')
    writeFileSync(
      config,
      `export default ${JSON.stringify({
        corpus: resolve('fixtures/corpora/tiny'),
        goldenSet: resolve('fixtures/golden/valid.json'),
        baseline: 'baseline',
        system: { http: { url, headers: { Authorization: 'Bearer ${env:RAG_KEY}' } } },
      })}\n`,
    )
    // Each key holds characters that URL-encoding and the two base64 alphabets write differently.
    const key = () => `sk-${randomBytes(12).toString('hex')}/+=?`
    const [keyA, keyB, keyC] = [key(), key(), key()]
    const printed: string[] = []

    const evaluated = await ragEvalInProcess(['eval', '--config', config], {
      env: { RAG_KEY: keyA, EVAL_MAX_RETRIES: '0' },
      cwd: dir,
    })
    printed.push(evaluated.stdout, evaluated.stderr)
    expect(evaluated.code, evaluated.stderr).toBe(0)
    const compared = await ragEvalInProcess(
      [
        'compare',
        '--a',
        config,
        '--b',
        config,
        '--a-env',
        `RAG_KEY=${keyB}`,
        '--b-env',
        `RAG_KEY=${keyC}`,
        '--out',
        join(dir, 'compare'),
      ],
      // One attempt: the 503 is not waited on again.
      { env: { EVAL_MAX_RETRIES: '0' }, cwd: dir },
    )
    printed.push(compared.stdout, compared.stderr)
    expect(compared.code, compared.stderr).toBe(0)
    expect(compared.stdout.split('\n')[0]).toBe(`evaluating A: ${config} with RAG_KEY=[REDACTED] (full tier)`)
    // Each key was sent: the service echoed real keys, not nothing.
    expect([...new Set(received)]).toEqual([keyA, keyB, keyC])

    const written = filesUnder(dir)
    expect(written).toEqual(
      expect.arrayContaining([
        'reports/latest.json',
        'reports/latest.md',
        'reports/contexts.jsonl',
        'reports/attribution.jsonl',
        expect.stringMatching(/^\.cache\/tokens\//),
        'compare/compare.json',
        'compare/compare.md',
        'compare/compare-a.json',
        'compare/compare-b.json',
      ]),
    )
    // The echoes arrived, redacted: the answer keeps its words, each encoding is masked.
    const latest = JSON.parse(readFileSync(join(dir, 'reports/latest.json'), 'utf8')) as {
      questions: { id: string; answer: string | null; systemError: string | null }[]
    }
    const [g1, g2] = latest.questions
    expect(g1!.answer).toBe(
      '30 days (served for raw=[REDACTED] base64=[REDACTED] base64url=[REDACTED] url=[REDACTED] hex=[REDACTED] HEX=[REDACTED] basic=dXNlc[REDACTED])',
    )
    expect(g2!.systemError).toContain('upstream refused raw=[REDACTED] base64=[REDACTED]')
    const bytes = [...written.map((path) => readFileSync(join(dir, path), 'latin1')), ...printed]
    for (const secret of [keyA, keyB, keyC])
      for (const [name, form] of Object.entries(encodings(secret)))
        expect(
          written.concat('stdout', 'stderr', 'stdout', 'stderr').filter((_, at) => bytes[at]!.includes(form)),
          `${name} of a key`,
        ).toEqual([])
  })
})
