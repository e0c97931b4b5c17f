import { describe, expect, it } from 'vitest'
import { mulberry32 } from '../statistics/seeded-random.ts'
import { decodeUtf8Text, firstInvalidUtf8Byte } from './utf8-text.ts'
import { failureMessage as failure } from '../testing/failure-message.ts'

describe('firstInvalidUtf8Byte', () => {
  it('names the first byte of the first ill-formed sequence (Unicode table 3-7)', () => {
    const at = (...bytes: number[]) => firstInvalidUtf8Byte(Uint8Array.from(bytes))
    expect(at(0x41, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80)).toBe(-1) // A é € 😀
    expect(at(0x41, 0x80)).toBe(1) // a lone continuation byte
    expect(at(0x41, 0xc3, 0x41)).toBe(1) // a lead byte without its continuation
    expect(at(0xc0, 0xaf)).toBe(0) // overlong "/"
    expect(at(0x41, 0xe0, 0x80, 0xaf)).toBe(1) // overlong three-byte form
    expect(at(0xed, 0xa0, 0x80)).toBe(0) // a UTF-16 surrogate (U+D800)
    expect(at(0xf4, 0x90, 0x80, 0x80)).toBe(0) // above U+10FFFF
    expect(at(0x41, 0x42, 0xf0, 0x9f, 0x98)).toBe(2) // cut short at the end
    expect(at(0xef, 0xbf, 0xbd, 0x41, 0xff)).toBe(4) // a U+FFFD the bytes spell out is text, not the error
    expect(at(0xef, 0xbb, 0xbf, 0x41, 0x80)).toBe(4) // after a byte-order mark
  })

  it('agrees with the WHATWG decoder over 3000 random byte strings: valid exactly when it decodes, and the offset is where U+FFFD would first go', () => {
    const random = mulberry32(11)
    const strict = new TextDecoder('utf-8', { fatal: true })
    const lenient = new TextDecoder('utf-8')
    // Bytes biased to the interesting ranges: ASCII (thrice, so valid strings are common), continuation bytes, lead bytes and the edges E0 ED F0 F4.
    const pool = [
      0x41, 0x41, 0x41, 0x0a, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc2, 0xc3, 0xdf, 0xe0, 0xe2, 0xed, 0xef, 0xf0, 0xf3, 0xf4,
      0xf5, 0xff,
    ]
    const counts = { valid: 0, invalid: 0 }
    for (let i = 0; i < 3000; i++) {
      const bytes = Uint8Array.from({ length: 1 + Math.floor(random() * 6) }, () => pool[Math.floor(random() * pool.length)]!)
      const offset = firstInvalidUtf8Byte(bytes)
      let decodes = true
      try {
        strict.decode(bytes)
      } catch {
        decodes = false
      }
      expect(offset === -1, bytes.join(' ')).toBe(decodes)
      if (offset === -1) {
        counts.valid++
        continue
      }
      counts.invalid++
      const before = strict.decode(bytes.subarray(0, offset))
      expect(lenient.decode(bytes).indexOf('\uFFFD'), bytes.join(' ')).toBe(before.length)
    }
    expect(counts.valid).toBeGreaterThan(100)
    expect(counts.invalid).toBeGreaterThan(100)
  })
})

describe('decodeUtf8Text', () => {
  it('drops a leading byte-order mark, and only a leading one', () => {
    expect(decodeUtf8Text(Uint8Array.from([0xef, 0xbb, 0xbf, 0x41, 0xef, 0xbb, 0xbf]), 'a.md')).toBe('A\uFEFF')
  })

  it('names the file, the byte offset and the line of the first invalid byte', () => {
    // "a\nb\n" is bytes 0-3, so the Windows-1252 right quote 0x92 is byte 4, on line 3.
    expect(failure(() => decodeUtf8Text(Uint8Array.from([0x61, 0x0a, 0x62, 0x0a, 0x92]), 'docs/x.md'))).toBe(
      'docs/x.md: not valid UTF-8: byte 0x92 at byte offset 4 (line 3) does not start a valid UTF-8 sequence; save the file as UTF-8 (it may be Latin-1 or Windows-1252)',
    )
  })
})
