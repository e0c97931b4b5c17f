import { existsSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EvalConfigSchema } from '../contract/eval-config-schema.ts'
import { InputError } from '../contract/input-error.ts'
import { redactSecrets, registerSecret } from '../common/secrets.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { openSystem, type OpenSystemContext } from './open-system.ts'

const temp = useTempDirs()
let server: Server
let url: string
const authorizations: (string | undefined)[] = []

beforeAll(async () => {
  server = createServer((request, response) => {
    request.resume()
    request.on('end', () => {
      authorizations.push(request.headers.authorization)
      response.writeHead(200, { 'content-type': 'application/json' })
      response.end('{"ranked":[]}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/rag`
})
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())))

const context = (root: string, env: NodeJS.ProcessEnv): OpenSystemContext => ({
  corpus: null,
  config: EvalConfigSchema.parse({}),
  generate: true,
  root,
  source: 'rag-eval.config.ts',
  env,
  log: () => {},
})
const headers = { Authorization: 'Bearer ${env:RAG_API_KEY}' }

describe('openSystem: an HTTP system whose headers reference the environment', () => {
  it('fails on a missing variable, naming it, before the service is started or asked anything', async () => {
    const root = temp.make('headers-')
    const message =
      'rag-eval.config.ts system.http: the environment variable RAG_API_KEY is not set (or empty), referenced by headers.Authorization; set it before the run'
    // A service the suite would start (nothing listens on port 9): its command never runs.
    const started = { http: { url: 'http://127.0.0.1:9/rag', headers, command: 'touch started; sleep 60' } }
    const starting = openSystem(started, context(root, {}))
    await expect(starting).rejects.toThrow(InputError)
    await expect(starting).rejects.toThrow(message)
    expect(existsSync(join(root, 'started'))).toBe(false)
    // A service already running is not asked anything.
    await expect(openSystem({ http: { url, headers } }, context(root, { RAG_API_KEY: '' }))).rejects.toThrow(message)
    expect(authorizations).toEqual([])
  })

  it('sends the resolved value, and from then on the process redacts it', async () => {
    const secret = 'sk-open-system-5c2d8e'
    expect(redactSecrets(`key ${secret}`)).toBe(`key ${secret}`)
    const system = await openSystem({ http: { url, headers } }, context(temp.make('headers-'), { RAG_API_KEY: secret }))
    await system.answer({ id: 'q-1', question: 'Hi?', userContext: null })
    expect(authorizations).toEqual([`Bearer ${secret}`])
    expect(redactSecrets(`key ${secret}; header Bearer ${secret}`)).toBe('key [REDACTED]; header [REDACTED]')
  })

  it('refuses a secret the corpus holds, naming the document and the variable, and does not register it', async () => {
    // "attachments" as a key: redacting it from the service's contexts would mask the corpus itself.
    const corpus = [
      { id: 'guides/sso', title: 'Single sign-on', file: 'corpus/guides/sso.md', body: 'Sign in once.' },
      { id: 'billing', title: 'Invoices', file: 'corpus/billing.md', body: 'Download the attachments of an invoice.' },
    ]
    const opening = openSystem(
      { http: { url, headers } },
      { ...context(temp.make('headers-'), { RAG_API_KEY: 'attachments' }), corpus },
    )
    await expect(opening).rejects.toThrow(InputError)
    await expect(opening).rejects.toThrow(
      "corpus/billing.md: holds the value of ${env:RAG_API_KEY} (headers.Authorization), a secret: the run would redact the corpus's own text from every answer and context and change the metrics; use a secret no document holds (a random key)",
    )
    expect(redactSecrets('the attachments')).toBe('the attachments')
    // A service's variable named as a secret is one too: its hex form in a document is refused the same way.
    const started = { http: { url, env: { PORT: '8766', UPSTREAM_TOKEN: 'tok-upstream-9d1f' } } }
    const hex = { id: 'dump', title: 'Dump', file: 'corpus/dump.md', body: 'x 746f6b2d757073747265616d2d39643166 y' }
    await expect(openSystem(started, { ...context(temp.make('headers-'), {}), corpus: [hex] })).rejects.toThrow(
      'corpus/dump.md: holds the value of system.http.env UPSTREAM_TOKEN, a secret',
    )
    const system = await openSystem(started, { ...context(temp.make('headers-'), {}), corpus })
    await system.close?.()
    expect(redactSecrets('tok-upstream-9d1f 8766')).toBe('[REDACTED] 8766')
  })

  it("refuses a secret registered before the system is opened (a comparison side's --a-env) that the corpus holds", async () => {
    registerSecret('corpus-held-key-7f3a', '--a-env RAG_KEY')
    const corpus = [{ id: 'notes', title: 'Notes', file: 'corpus/notes.md', body: 'The key: corpus-held-key-7f3a.' }]
    await expect(openSystem('builtin', { ...context(temp.make('headers-'), {}), corpus })).rejects.toThrow(
      'corpus/notes.md: holds the value of --a-env RAG_KEY, a secret',
    )
  })
})
