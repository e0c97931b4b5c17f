import { z } from 'zod'
import { InputError } from '../contract/input-error.ts'
import { MIN_SECRET_LENGTH } from '../common/secrets.ts'

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

export const HttpHeadersSchema = z
  .record(z.string(), z.string({ error: 'expected a string (write a secret as "${env:NAME}")' }))
  .superRefine((headers, context) => {
    for (const name of Object.keys(headers)) {
      if (!HEADER_NAME.test(name))
        context.addIssue({ code: 'custom', path: [name], message: `${JSON.stringify(name)} is not an HTTP header name` })
      else if (RESERVED_HEADERS.has(name.toLowerCase()))
        context.addIssue({
          code: 'custom',
          path: [name],
          message: `${name} is set by the suite (the contract's JSON body and its framing); leave it out`,
        })
      // A `${` that is no reference is a typo (`${ENV:KEY}`, `${env: KEY}`) that would be sent as it is.
      else if (headers[name]!.replace(REFERENCE, '').includes('${'))
        context.addIssue({
          code: 'custom',
          path: [name],
          message: 'holds a "${" that is not a reference; write ${env:NAME} (NAME of letters, digits and _)',
        })
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
): { headers: Record<string, string>; secrets: string[] } {
  const resolved: Record<string, string> = {}
  const secrets = new Set<string>()
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
    for (const secret of [value.trim(), ...variables.map((variable) => env[variable]!.trim())]) {
      if (secret.length < MIN_SECRET_LENGTH)
        throw new InputError(
          `${shown}${from}: a secret of ${secret.length} character${secret.length === 1 ? '' : 's'} is too short to be kept out of reports (at least ${MIN_SECRET_LENGTH}: a shorter one would mask ordinary text); ` +
            (from === ''
              ? 'a header named like a credential (Authorization, Cookie, *key*, *token*, *secret*) holds a secret: give the real one'
              : 'write a value that is no secret literally, without ${env:}'),
        )
      secrets.add(secret)
    }
  }
  return { headers: resolved, secrets: [...secrets] }
}
