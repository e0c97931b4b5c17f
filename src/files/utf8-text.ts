import { readFileSync } from 'node:fs'
import { InputError } from '../contract/input-error.ts'

/**
 * Byte offset of the first ill-formed UTF-8 sequence (Unicode 15, table 3-7: no overlong forms, no
 * surrogates, nothing above U+10FFFF, no truncated sequence), or -1 when all bytes are valid. The
 * offset is the sequence's first byte: where a lenient decoder would put its first U+FFFD.
 */
export function firstInvalidUtf8Byte(bytes: Uint8Array): number {
  let i = 0
  while (i < bytes.length) {
    const lead = bytes[i]!
    if (lead < 0x80) {
      i++
      continue
    }
    // Continuation bytes are 0x80-0xBF; the second byte is narrower after E0, ED, F0, F4.
    let follow: number
    let low = 0x80
    let high = 0xbf
    if (lead >= 0xc2 && lead <= 0xdf) follow = 1
    else if (lead === 0xe0) [follow, low] = [2, 0xa0]
    else if (lead === 0xed) [follow, high] = [2, 0x9f]
    else if (lead >= 0xe1 && lead <= 0xef) follow = 2
    else if (lead === 0xf0) [follow, low] = [3, 0x90]
    else if (lead === 0xf4) [follow, high] = [3, 0x8f]
    else if (lead >= 0xf1 && lead <= 0xf3) follow = 3
    else return i
    for (let k = 1; k <= follow; k++) {
      const byte = bytes[i + k]
      if (byte === undefined || byte < (k === 1 ? low : 0x80) || byte > (k === 1 ? high : 0xbf)) return i
    }
    i += follow + 1
  }
  return -1
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true })

/**
 * The text of a file's bytes, which must be UTF-8; a leading byte-order mark is dropped (it marks the
 * encoding, it is not text). Invalid bytes are an error naming the file, the byte offset and line of
 * the first one, never replaced by U+FFFD in silence.
 */
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
