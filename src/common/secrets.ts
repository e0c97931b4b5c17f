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

/** The registered secrets with their forms, and every form of all of them, longest first. */
const registered: { source: string; forms: string[] }[] = []
let forms: string[] = []
let byteForms: Uint8Array[] = []
const maskBytes = new TextEncoder().encode(REDACTED)

/**
 * Every form a service may echo a secret in: as it is, JSON-escaped, URL-encoded (three encoders' sets), hex, and
 * base64/base64url alone and inside a longer encoded text (Basic auth's "user:password"): at each of the three byte
 * alignments, the whole 4-character groups only the secret's bytes make.
 */
export function secretForms(value: string): string[] {
  const bytes = Buffer.from(value, 'utf8')
  const aligned = [0, 1, 2].map((skip) => bytes.subarray(skip, skip + Math.floor((bytes.length - skip) / 3) * 3))
  const hex = bytes.toString('hex')
  return [
    ...new Set([
      value,
      JSON.stringify(value).slice(1, -1),
      encodeURIComponent(value),
      encodeURI(value),
      new URLSearchParams({ s: value }).toString().slice(2),
      hex,
      hex.toUpperCase(),
      ...[bytes, ...aligned].flatMap((part) => [part.toString('base64'), part.toString('base64url')]),
    ]),
  ]
}

/** Registers a secret: from now on this process redacts it in every form; `source` names it in messages. */
export function registerSecret(value: string, source = 'a secret'): void {
  if (value.length < MIN_SECRET_LENGTH)
    throw new Error(`${source} must hold at least ${MIN_SECRET_LENGTH} characters to be redacted reliably`)
  if (registered.some((secret) => secret.source === source && secret.forms[0] === value)) return
  registered.push({ source, forms: secretForms(value) })
  const added = registered.at(-1)!.forms.filter((form) => !forms.includes(form))
  forms = [...forms, ...added].sort((a, b) => b.length - a.length)
  byteForms = forms.map((form) => new TextEncoder().encode(form))
}

/** A finder of the secrets, registered and `candidates`, that a text holds in any form: their sources, for messages. */
export function secretFinder(candidates: readonly Secret[] = []): (text: string) => string[] {
  const all = [...registered, ...candidates.map(({ source, value }) => ({ source, forms: secretForms(value) }))]
  return (text) => all.filter((secret) => secret.forms.some((form) => text.includes(form))).map(({ source }) => source)
}

/** Whether any secret is registered: without one, redaction is the identity (reports stay byte-identical). */
export const hasSecrets = () => forms.length > 0

/** The text with every registered secret replaced by [REDACTED]. */
export function redactSecrets(text: string): string {
  let redacted = text
  for (const form of forms) if (redacted.includes(form)) redacted = redacted.split(form).join(REDACTED)
  return redacted
}

/** Every occurrence of `pattern` in `bytes` replaced by `replacement`; the same array when there is none. */
function replaceBytes(bytes: Uint8Array, pattern: Uint8Array, replacement: Uint8Array): Uint8Array {
  const haystack = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength)
  let at = haystack.indexOf(pattern)
  if (at < 0) return bytes
  const pieces: Uint8Array[] = []
  let from = 0
  while (at >= 0) {
    pieces.push(bytes.subarray(from, at), replacement)
    from = at + pattern.length
    at = haystack.indexOf(pattern, from)
  }
  pieces.push(bytes.subarray(from))
  return Buffer.concat(pieces)
}

/** UTF-8 bytes with every registered secret replaced (binary content is searched the same way). */
export function redactSecretBytes(bytes: Uint8Array): Uint8Array {
  let redacted = bytes
  for (const form of byteForms) redacted = replaceBytes(redacted, form, maskBytes)
  return redacted
}

/** Redacts a text written piece by piece without joining it: a piece's tail waits for the next, so a split secret is found. */
export function* redactSecretParts(parts: Iterable<Uint8Array>): Generator<Uint8Array> {
  if (!hasSecrets()) {
    yield* parts
    return
  }
  const held = Math.max(...byteForms.map((form) => form.length)) - 1
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
