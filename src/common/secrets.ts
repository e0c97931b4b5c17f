// The run's secrets, registered before the first request and redacted wherever text leaves the process. Process-wide,
// because any writer may meet a secret a service echoed; it only grows, as forgetting one could leak it in a late write.

/** What a secret is replaced with: plain ASCII, valid inside JSON strings, Markdown and URLs alike. */
export const REDACTED = '[REDACTED]'

/** A shorter secret cannot be masked without masking ordinary text ("1234"): the configuration refuses it. */
export const MIN_SECRET_LENGTH = 8

/** Every form a secret is written in, longest first: as it is, and escaped inside a JSON string. */
let forms: string[] = []
let byteForms: Uint8Array[] = []
const maskBytes = new TextEncoder().encode(REDACTED)

/** Registers a secret: from now on this process redacts it, as it is and as a JSON string's content. */
export function registerSecret(value: string): void {
  if (value.length < MIN_SECRET_LENGTH)
    throw new Error(`a secret must hold at least ${MIN_SECRET_LENGTH} characters to be redacted reliably`)
  const escaped = JSON.stringify(value).slice(1, -1)
  const added = [value, escaped].filter((form) => !forms.includes(form))
  if (added.length === 0) return
  forms = [...forms, ...added].sort((a, b) => b.length - a.length)
  byteForms = forms.map((form) => new TextEncoder().encode(form))
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
