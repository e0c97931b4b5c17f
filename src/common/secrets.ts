// The run's secrets, registered before the first request and redacted wherever text leaves the process. Process-wide,
// because any writer may meet a secret a service echoed; it only grows, as forgetting one could leak it in a late write.

/** What a secret is replaced with: plain ASCII, valid inside JSON strings, Markdown and URLs alike. */
export const REDACTED = '[REDACTED]'

/** A shorter secret cannot be masked without masking ordinary text ("1234"): the configuration refuses it. */
export const MIN_SECRET_LENGTH = 8

/** A variable whose value is a secret: its name ends in KEY, TOKEN, SECRET or PASSWORD (RAG_KEY; not EVAL_CHUNK_TOKENS, KEY_FILE). */
export const SECRET_NAME = /(?:key|token|secret|passw(?:or)?d)$/i

/** A value to keep out of every byte, and where it came from: a variable or header named, never the value. */
export interface Secret {
  source: string
  value: string
}

/** The registered secrets, and the patterns that find them in text and in bytes (read as Latin-1); null: none. */
const registered: { source: string; value: string }[] = []
let textPattern: RegExp | null = null
let bytePattern: RegExp | null = null
/** How far past its start a match may reach: what a piece written in parts holds back for the next. */
let longestMatch = 0

/** A character of either base64 alphabet. */
const BASE64_CHAR = /[A-Za-z0-9+/_-]/
const escaped = (form: string) => form.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')

/**
 * The forms a service may echo a secret in. `plain`: as it is, JSON-escaped, URL-encoded (three encoders' sets), hex.
 * `base64`: base64 and base64url alone, and the whole 4-character groups only the secret's bytes make at each of the
 * three byte alignments in a longer encoded text (Basic auth's "user:password").
 */
function formsOf(value: string): { plain: string[]; base64: string[] } {
  const bytes = Buffer.from(value, 'utf8')
  const aligned = [0, 1, 2].map((skip) => bytes.subarray(skip, skip + Math.floor((bytes.length - skip) / 3) * 3))
  const hex = bytes.toString('hex')
  const plain = [value, JSON.stringify(value).slice(1, -1), encodeURIComponent(value), encodeURI(value)]
  plain.push(new URLSearchParams({ s: value }).toString().slice(2), hex, hex.toUpperCase())
  return { plain, base64: [bytes, ...aligned].flatMap((part) => [part.toString('base64'), part.toString('base64url')]) }
}

/** One pattern for all the secrets' forms, longest first; group 1 holds a base64 form. */
function patternOf(secrets: readonly { value: string }[], view: (form: string) => string): RegExp {
  const forms = secrets.map(({ value }) => formsOf(value))
  const union = (list: string[]) =>
    [...new Set(list.map(view))]
      .sort((a, b) => b.length - a.length)
      .map(escaped)
      .join('|')
  return new RegExp(`(${union(forms.flatMap((form) => form.base64))})|${union(forms.flatMap((form) => form.plain))}`, 'g')
}

/**
 * `text` with each match of `pattern` replaced by [REDACTED]; a base64 form with up to 3 base64 characters on either
 * side (and its padding): the partial groups that still carry bits of the secret, so no part of it survives.
 */
function redactedBy(pattern: RegExp, text: string): string {
  let redacted = ''
  let from = 0
  for (const match of text.matchAll(pattern)) {
    let start = Math.max(match.index, from)
    let end = match.index + match[0].length
    for (let n = 0; match[1] && n < 3 && start > from && BASE64_CHAR.test(text[start - 1]!); n++) start--
    for (let n = 0; match[1] && n < 3 && BASE64_CHAR.test(text[end] ?? ''); n++) end++
    for (let n = 0; match[1] && n < 2 && text[end] === '='; n++) end++
    redacted += `${text.slice(from, start)}${REDACTED}`
    from = end
  }
  return from === 0 ? text : redacted + text.slice(from)
}

/** Registers a secret: from now on this process redacts it in every form; `source` names it in messages. */
export function registerSecret(value: string, source = 'a secret'): void {
  if (value.length < MIN_SECRET_LENGTH)
    throw new Error(`${source} must hold at least ${MIN_SECRET_LENGTH} characters to be redacted reliably`)
  if (registered.some((secret) => secret.source === source && secret.value === value)) return
  registered.push({ source, value })
  textPattern = patternOf(registered, (form) => form)
  bytePattern = patternOf(registered, (form) => Buffer.from(form, 'utf8').toString('latin1'))
  // No form takes more than 6 bytes per byte of the secret (a JSON \u escape); a base64 match reaches 8 further.
  longestMatch = Math.max(longestMatch, 6 * Buffer.byteLength(value) + 8)
}

/** A finder of the secrets, registered and `candidates`, that a text holds in any form: their sources, for messages. */
export function secretFinder(candidates: readonly Secret[] = []): (text: string) => string[] {
  const all = [...registered, ...candidates].map(({ source, value }) => ({ source, pattern: patternOf([{ value }], (f) => f) }))
  return (text) => all.filter(({ pattern }) => text.search(pattern) >= 0).map(({ source }) => source)
}

/** Whether any secret is registered: without one, redaction is the identity (reports stay byte-identical). */
export const hasSecrets = () => textPattern !== null

/** The text with every registered secret replaced by [REDACTED]. */
export const redactSecrets = (text: string): string => (textPattern ? redactedBy(textPattern, text) : text)

/** UTF-8 bytes with every registered secret replaced (binary content is searched the same way); the same array when none. */
export function redactSecretBytes(bytes: Uint8Array): Uint8Array {
  if (!bytePattern) return bytes
  // Latin-1 maps each byte to one character and back: the bytes around a secret are kept as they are.
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1')
  const redacted = redactedBy(bytePattern, text)
  return redacted === text ? bytes : Buffer.from(redacted, 'latin1')
}

/** Redacts a text written piece by piece without joining it: a piece's tail waits for the next, so a split secret is found. */
export function* redactSecretParts(parts: Iterable<Uint8Array>): Generator<Uint8Array> {
  if (!hasSecrets()) {
    yield* parts
    return
  }
  const held = longestMatch - 1
  let pending: Uint8Array = new Uint8Array(0)
  for (const part of parts) {
    // Every whole occurrence is replaced; what may begin one that ends in the next piece is kept back.
    const redacted = redactSecretBytes(pending.length === 0 ? part : Buffer.concat([pending, part]))
    const cut = Math.max(0, redacted.length - held)
    if (cut > 0) yield redacted.subarray(0, cut)
    pending = redacted.subarray(cut)
  }
  if (pending.length > 0) yield pending
}

/** A parsed JSON value with every string in it (keys too) redacted: escapes such as \u0026 are decoded by then. */
export function redactSecretsIn(value: unknown): unknown {
  if (!hasSecrets()) return value
  if (typeof value === 'string') return redactSecrets(value)
  if (Array.isArray(value)) return value.map(redactSecretsIn)
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, inner]) => [redactSecrets(key), redactSecretsIn(inner)]))
  return value
}
