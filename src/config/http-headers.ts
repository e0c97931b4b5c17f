import { z } from 'zod'
import { InputError } from '../contract/input-error.ts'
import { MIN_SECRET_LENGTH, SECRET_NAME, type Secret } from '../common/secrets.ts'

/** An HTTP field name (RFC 9110's token). */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

/** Headers the suite sets or the connection owns: the contract's JSON body and its framing are not the user's to change. */
const RESERVED_HEADERS = new Set([
  'content-type',
  'content-length',
  'transfer-encoding',
  'host',
  'connection',
  'keep-alive',
  'upgrade',
  'expect',
])

/** Names of headers that carry credentials: their values are secrets even when written literally. */
const CREDENTIAL_HEADER = /^(authorization|proxy-authorization|cookie)$|key|token|secret|password|auth|session/i

/** `${env:NAME}`: a reference to an environment variable, resolved when the run starts. */
const REFERENCE = /\$\{env:([A-Za-z_][A-Za-z0-9_]*)\}/g

/** `$NAME`, as a shell would expand it: no shell reads a header, so it would be sent as written. */
const SHELL_VARIABLE = /\$([A-Za-z_][A-Za-z0-9_]*)/

/** Why a secret is refused when it is too short, after what names it. */
const tooShort = (length: number) =>
  `a secret of ${length} character${length === 1 ? '' : 's'} is too short to be kept out of reports (at least ${MIN_SECRET_LENGTH}: a shorter one would mask ordinary text)`

export const HttpHeadersSchema = z
  .record(z.string(), z.string({ error: 'expected a string (write a secret as "${env:NAME}")' }))
  .superRefine((headers, context) => {
    for (const [name, value] of Object.entries(headers)) {
      const issue = (message: string) => context.addIssue({ code: 'custom', path: [name], message })
      const literal = value.replace(REFERENCE, '')
      const shell = SHELL_VARIABLE.exec(literal)?.[1]
      if (!HEADER_NAME.test(name)) issue(`${JSON.stringify(name)} is not an HTTP header name`)
      else if (RESERVED_HEADERS.has(name.toLowerCase()))
        issue(`${name} is set by the suite (the contract's JSON body and its framing); leave it out`)
      // A `${` that is no reference is a typo (`${ENV:KEY}`, `${env: KEY}`) that would be sent as it is.
      else if (literal.includes('${'))
        issue('holds a "${" that is not a reference; write ${env:NAME} (NAME of letters, digits and _)')
      else if (shell !== undefined)
        issue(`holds $${shell}, which no shell expands here: it would be sent as written; write \${env:${shell}}`)
    }
  })
  .optional()
  .describe(
    'Headers sent with each request, e.g. { Authorization: "Bearer ${env:RAG_API_KEY}" }; ${env:NAME} is read from the environment when the run starts, and resolved values are kept out of every file and message',
  )

/**
 * Resolves `${env:NAME}` references and collects the secrets to redact. Every unset variable, unsendable value or
 * too-short secret is named at once, before any request; messages name the header and variable, never a value.
 */
export function resolveHttpHeaders(
  headers: Record<string, string> | undefined,
  env: NodeJS.ProcessEnv,
  where: string,
): { headers: Record<string, string>; secrets: Secret[] } {
  const resolved: Record<string, string> = {}
  const secrets = new Map<string, string>()
  const missing: string[] = []
  const entries = Object.entries(headers ?? {})
  for (const [, template] of entries) {
    for (const [, variable] of template.matchAll(REFERENCE))
      if (!env[variable!] && !missing.includes(variable!)) missing.push(variable!)
  }
  if (missing.length > 0) {
    const names = missing.join(', ')
    throw new InputError(
      `${where}: the environment variable${missing.length > 1 ? 's' : ''} ${names} ${missing.length > 1 ? 'are' : 'is'} not set (or empty), referenced by ${entries
        .filter(([, template]) => [...template.matchAll(REFERENCE)].some(([, variable]) => missing.includes(variable!)))
        .map(([name]) => `headers.${name}`)
        .join(', ')}; set ${missing.length > 1 ? 'them' : 'it'} before the run`,
    )
  }
  for (const [name, template] of entries) {
    const variables = [...template.matchAll(REFERENCE)].map(([, variable]) => variable!)
    const value = template.replace(REFERENCE, (_, variable: string) => env[variable]!)
    const shown = `${where}: headers.${name}`
    const from = variables.length > 0 ? ` (from ${variables.map((v) => `\${env:${v}}`).join(', ')})` : ''
    // fetch would quote the whole value in its error: refused here, the value unnamed.
    const bad = [...value].findIndex((char) => /[\r\n\0]/.test(char) || char.codePointAt(0)! > 0xff)
    if (bad >= 0)
      throw new InputError(
        `${shown}${from}: character ${bad + 1} of the value cannot be sent in an HTTP header (a line break, NUL, or beyond Latin-1)`,
      )
    resolved[name] = value
    const isSecret = variables.length > 0 || CREDENTIAL_HEADER.test(name)
    if (!isSecret) continue
    const named = variables.map((variable) => [env[variable]!.trim(), `\${env:${variable}} (headers.${name})`] as const)
    for (const [secret, source] of [[value.trim(), `headers.${name}`] as const, ...named]) {
      if (secret.length < MIN_SECRET_LENGTH)
        throw new InputError(
          `${shown}${from}: ${tooShort(secret.length)}; ` +
            (from === ''
              ? 'a header named like a credential (Authorization, Cookie, *key*, *token*, *secret*) holds a secret: give the real one'
              : 'write a value that is no secret literally, without ${env:}'),
        )
      if (!secrets.has(secret)) secrets.set(secret, source)
    }
  }
  return { headers: resolved, secrets: [...secrets].map(([value, source]) => ({ source, value })) }
}

/**
 * The values of `env` whose names say they are secrets (common/secrets.ts), each named `<where> NAME`; a value too
 * short to redact is refused, naming the variable, never the value.
 */
export function secretVariables(env: Record<string, string | undefined>, where: string): Secret[] {
  return Object.entries(env).flatMap(([name, value]) => {
    if (!SECRET_NAME.test(name) || !value) return []
    if (value.length < MIN_SECRET_LENGTH)
      throw new InputError(
        `${where} ${name}: ${tooShort(value.length)}; a variable that is no secret needs a name without KEY, TOKEN, SECRET or PASSWORD`,
      )
    return [{ source: `${where} ${name}`, value }]
  })
}
