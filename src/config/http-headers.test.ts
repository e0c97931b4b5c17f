import { describe, expect, it } from 'vitest'
import { resolveProjectConfig } from './project-config.ts'
import { resolveHttpHeaders, secretVariables } from './http-headers.ts'

const where = 'rag-eval.config.ts system.http'
const spec = (headers: unknown) => ({ system: { http: { url: 'http://127.0.0.1:9/rag', headers } } })
const configError = (headers: unknown) => {
  try {
    resolveProjectConfig(spec(headers), { root: '/project', source: 'rag-eval.config.ts', env: {} })
  } catch (error) {
    return (error as Error).message
  }
  return 'no error'
}

describe('resolveHttpHeaders: ${env:NAME} read when the run starts', () => {
  it('substitutes each reference; values that reference the environment, and their variables, are the secrets', () => {
    const resolved = resolveHttpHeaders(
      { Authorization: 'Bearer ${env:RAG_API_KEY}', 'X-Tenant': 'acme', 'X-Route': 'eu-${env:REGION}-${env:RAG_API_KEY}' },
      { RAG_API_KEY: 'sk-live-0123456789', REGION: 'west-central' },
      where,
    )
    expect(resolved.headers).toEqual({
      Authorization: 'Bearer sk-live-0123456789',
      'X-Tenant': 'acme',
      'X-Route': 'eu-west-central-sk-live-0123456789',
    })
    // Each named by where it came from (for messages that must not quote it); a value used twice, once.
    expect(resolved.secrets).toEqual([
      { source: 'headers.Authorization', value: 'Bearer sk-live-0123456789' },
      { source: '${env:RAG_API_KEY} (headers.Authorization)', value: 'sk-live-0123456789' },
      { source: 'headers.X-Route', value: 'eu-west-central-sk-live-0123456789' },
      { source: '${env:REGION} (headers.X-Route)', value: 'west-central' },
    ])
  })

  it('takes a literal value of a credential header as a secret too (Authorization, Cookie, *key*, *token*)', () => {
    const resolved = resolveHttpHeaders(
      { 'X-Api-Key': 'literal-key-123', Cookie: 'session=abcdef12', Accept: 'application/json' },
      {},
      where,
    )
    expect(resolved.secrets).toEqual([
      { source: 'headers.X-Api-Key', value: 'literal-key-123' },
      { source: 'headers.Cookie', value: 'session=abcdef12' },
    ])
  })

  it('names every variable that is not set or empty, and the headers using them, before any request', () => {
    expect(() =>
      resolveHttpHeaders(
        { Authorization: 'Bearer ${env:RAG_API_KEY}', 'X-Org': '${env:ORG_ID}', 'X-Other': '${env:SET_ONE}' },
        { ORG_ID: '', SET_ONE: 'present-value' },
        where,
      ),
    ).toThrow(
      'rag-eval.config.ts system.http: the environment variables RAG_API_KEY, ORG_ID are not set (or empty), referenced by headers.Authorization, headers.X-Org; set them before the run',
    )
    expect(() => resolveHttpHeaders({ Authorization: 'Bearer ${env:RAG_API_KEY}' }, {}, where)).toThrow(
      'rag-eval.config.ts system.http: the environment variable RAG_API_KEY is not set (or empty), referenced by headers.Authorization; set it before the run',
    )
  })

  it('refuses a value no header can carry, and a secret too short to redact, without quoting the value', () => {
    const attempt = (env: Record<string, string>) => () => resolveHttpHeaders({ Authorization: 'Bearer ${env:KEY}' }, env, where)
    expect(attempt({ KEY: 'sk-one\nX-Injected: 1' })).toThrow(
      'rag-eval.config.ts system.http: headers.Authorization (from ${env:KEY}): character 14 of the value cannot be sent in an HTTP header (a line break, NUL, or beyond Latin-1)',
    )
    expect(attempt({ KEY: 'abc' })).toThrow(
      'rag-eval.config.ts system.http: headers.Authorization (from ${env:KEY}): a secret of 3 characters is too short to be kept out of reports (at least 8: a shorter one would mask ordinary text); write a value that is no secret literally, without ${env:}',
    )
    const messages = [attempt({ KEY: 'sk-one\nX-Injected: 1' }), attempt({ KEY: 'abc' })].map((f) => {
      try {
        f()
      } catch (error) {
        return (error as Error).message
      }
      return ''
    })
    expect(messages.join(' ')).not.toMatch(/sk-one|abc\b/)
    // Written literally: no hint to write it literally.
    expect(() => resolveHttpHeaders({ 'X-Api-Key': 'abc' }, {}, where)).toThrow(
      'rag-eval.config.ts system.http: headers.X-Api-Key: a secret of 3 characters is too short to be kept out of reports (at least 8: a shorter one would mask ordinary text); a header named like a credential (Authorization, Cookie, *key*, *token*, *secret*) holds a secret: give the real one',
    )
  })
})

describe('the headers in rag-eval.config.ts', () => {
  it('are checked with the config: names, the suite’s own headers, references', () => {
    expect(configError({ 'Content-Type': 'text/plain' })).toBe(
      'rag-eval.config.ts field "system" (system.http.headers.Content-Type): Content-Type is set by the suite (the contract\'s JSON body and its framing); leave it out',
    )
    expect(configError({ Authorization: 'Bearer ${ENV:RAG_API_KEY}' })).toBe(
      'rag-eval.config.ts field "system" (system.http.headers.Authorization): holds a "${" that is not a reference; write ${env:NAME} (NAME of letters, digits and _)',
    )
    expect(configError({ 'bad name': 'x' })).toBe(
      'rag-eval.config.ts field "system" (system.http.headers.bad name): "bad name" is not an HTTP header name',
    )
    // Not a string: the header named, not the list of every form `system` takes.
    expect(configError({ Authorization: 42 })).toBe(
      'rag-eval.config.ts field "system": http.headers.Authorization: expected a string (write a secret as "${env:NAME}")',
    )
    // Written shell-style, a variable would be sent as the characters "$RAG_KEY".
    expect(configError({ Authorization: 'Bearer $RAG_KEY' })).toBe(
      'rag-eval.config.ts field "system" (system.http.headers.Authorization): holds $RAG_KEY, which no shell expands here: it would be sent as written; write ${env:RAG_KEY}',
    )
    // A reference is not resolved when the config is read: an unset variable fails the run, not the config.
    expect(configError({ Authorization: 'Bearer ${env:UNSET_WHILE_LOADING}' })).toBe('no error')
  })
})

describe('${env:NAME} outside headers', () => {
  it('is refused in the url, readyUrl, command, cwd and env of the service, where it would be used as written', () => {
    const why =
      "holds ${env:NAME}, which only headers resolve: it would be used as written; send a key in a header (headers: { Authorization: 'Bearer ${env:NAME}' }); a started service inherits the run's environment"
    const error = (http: Record<string, unknown>) => {
      try {
        resolveProjectConfig(
          { system: { http: { url: 'http://127.0.0.1:9/rag', ...http } } },
          { root: '/p', source: 'rag-eval.config.ts', env: {} },
        )
      } catch (caught) {
        return (caught as Error).message
      }
      return 'no error'
    }
    expect(error({ url: 'http://127.0.0.1:9/rag?key=${env:RAG_KEY}' })).toBe(
      `rag-eval.config.ts field "system" (system.http.url): ${why}`,
    )
    expect(error({ readyUrl: 'http://127.0.0.1:9/health?key=${env:RAG_KEY}' })).toBe(
      `rag-eval.config.ts field "system" (system.http.readyUrl): ${why}`,
    )
    expect(error({ command: 'node service.mjs --key ${env:RAG_KEY}' })).toBe(
      `rag-eval.config.ts field "system" (system.http.command): ${why}`,
    )
    expect(error({ env: { PORT: '8766', RAG_KEY: '${env:RAG_KEY}' } })).toBe(
      `rag-eval.config.ts field "system" (system.http.env.RAG_KEY): ${why}`,
    )
    expect(error({ command: 'node service.mjs', env: { PORT: '8766' } })).toBe('no error')
  })
})

describe('secretVariables: the variables whose names say they hold a secret', () => {
  it('takes the names ending in KEY, TOKEN, SECRET or PASSWORD, named by where they were set', () => {
    const env = {
      RAG_KEY: 'sk-rag-0123',
      GITHUB_TOKEN: 'ghp-0123456',
      CLIENT_SECRET: 'client-0123',
      PGPASSWORD: 'hunter2hunter2',
      EVAL_CHUNK_TOKENS: '200',
      TOKEN_LIMIT: '500',
      KEY_FILE: 'keys/rag.pem',
      EMPTY_KEY: '',
    }
    expect(secretVariables(env, '--b-env')).toEqual([
      { source: '--b-env RAG_KEY', value: 'sk-rag-0123' },
      { source: '--b-env GITHUB_TOKEN', value: 'ghp-0123456' },
      { source: '--b-env CLIENT_SECRET', value: 'client-0123' },
      { source: '--b-env PGPASSWORD', value: 'hunter2hunter2' },
    ])
  })

  it('refuses a secret too short to redact, naming the variable and not the value', () => {
    expect(() => secretVariables({ RAG_KEY: 'k-42' }, '--a-env')).toThrow(
      '--a-env RAG_KEY: a secret of 4 characters is too short to be kept out of reports (at least 8: a shorter one would mask ordinary text); a variable that is no secret needs a name without KEY, TOKEN, SECRET or PASSWORD',
    )
  })
})
