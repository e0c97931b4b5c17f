import { firstInvalidUtf8Byte } from '../files/utf8-text.ts'
import { jsonSpans, type Span } from '../files/json-spans.ts'

const strictDecoder = new TextDecoder('utf-8', { fatal: true })
const lenientDecoder = new TextDecoder('utf-8')

/** `ranked[0].text`: the innermost value (or key) of a JSON text holding a character offset; null outside any. */
function pathAt(span: Span, offset: number, path = ''): string | null {
  if (offset < span.start || offset >= span.end) return null
  for (const member of span.members) {
    const inner = `${path === '' ? '' : `${path}.`}${member.key}`
    // A key's own text is no field name to show (it is the broken text): the object it belongs to is.
    if (offset >= member.keyStart && offset < member.value.start) return `a key of ${path === '' ? 'the response' : path}`
    const found = pathAt(member.value, offset, inner)
    if (found !== null) return found
  }
  for (const [index, element] of span.elements.entries()) {
    const found = pathAt(element, offset, `${path}[${index}]`)
    if (found !== null) return found
  }
  return path === '' ? 'the response' : path
}

/**
 * A response body's UTF-8 text; invalid bytes are named (offset, JSON field), never silently replaced by U+FFFD,
 * which would put text the service never sent before the metrics and the judge.
 */
export function decodeResponseText(bytes: Uint8Array): { ok: true; text: string } | { ok: false; problem: string } {
  try {
    return { ok: true, text: strictDecoder.decode(bytes) }
  } catch {
    const offset = firstInvalidUtf8Byte(bytes)
    const hex = bytes[offset]!.toString(16).toUpperCase().padStart(2, '0')
    // The bytes before the first invalid one decode alike either way: its character offset in the lenient text.
    const at = strictDecoder.decode(bytes.subarray(0, offset)).length
    const text = lenientDecoder.decode(bytes)
    let where = ''
    try {
      JSON.parse(text)
      where = `, in ${pathAt(jsonSpans(text), at) ?? 'the response'}`
    } catch {
      // Not JSON either: the offset alone says where.
    }
    return {
      ok: false,
      problem: `text that is not valid UTF-8: byte 0x${hex} at byte offset ${offset} of the body${where}; JSON must be sent as UTF-8 (it may be Latin-1 or Windows-1252)`,
    }
  }
}
