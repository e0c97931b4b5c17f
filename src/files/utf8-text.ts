import { readFileSync } from 'node:fs'
import { InputError } from '../contract/input-error.ts'

// The BOM kept: every character of the lenient text stands for its own bytes.
const lenientDecoder = new TextDecoder('utf-8', { ignoreBOM: true })
const encoder = new TextEncoder()

/** Byte offset of the first ill-formed UTF-8 sequence (where the decoder puts a U+FFFD the bytes do not spell), or -1. */
export function firstInvalidUtf8Byte(bytes: Uint8Array): number {
  const text = lenientDecoder.decode(bytes)
  for (let at = text.indexOf('\uFFFD'); at !== -1; at = text.indexOf('\uFFFD', at + 1)) {
    // What precedes it decoded from valid bytes: their count is its byte offset.
    const offset = encoder.encode(text.slice(0, at)).length
    if (!(bytes[offset] === 0xef && bytes[offset + 1] === 0xbf && bytes[offset + 2] === 0xbd)) return offset
  }
  return -1
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true })

/** A file's UTF-8 text, BOM dropped; invalid bytes are an error naming the offset and line, never a silent U+FFFD. */
export function decodeUtf8Text(bytes: Uint8Array, file: string): string {
  try {
    return strictDecoder.decode(bytes)
  } catch {
    const offset = firstInvalidUtf8Byte(bytes)
    const line = bytes.subarray(0, offset).filter((byte) => byte === 0x0a).length + 1
    const hex = bytes[offset]!.toString(16).toUpperCase().padStart(2, '0')
    throw new InputError(
      `${file}: not valid UTF-8: byte 0x${hex} at byte offset ${offset} (line ${line}) ` +
        `does not start a valid UTF-8 sequence; save the file as UTF-8 (it may be Latin-1 or Windows-1252)`,
    )
  }
}

/** The UTF-8 text of a file; a missing file is an InputError naming it and ending with `hint`: what to do. */
export function readUtf8File(file: string, hint: string): string {
  let bytes: Uint8Array
  try {
    bytes = readFileSync(file)
  } catch {
    throw new InputError(`${file}: not found; ${hint}`)
  }
  return decodeUtf8Text(bytes, file)
}
