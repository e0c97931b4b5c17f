import { existsSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EvalConfigSchema } from '../contract/eval-config-schema.ts'
import { InputError } from '../contract/input-error.ts'
import { redactSecrets } from '../common/secrets.ts'
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
})
