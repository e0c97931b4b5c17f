import { describe, expect, it } from 'vitest'
import {
  hasSecrets,
  redactSecretBytes,
  redactSecretParts,
  redactSecrets,
  redactSecretsIn,
  registerSecret,
  secretFinder,
} from './secrets.ts'

// One registry per module instance: this file's tests share it, so each uses secrets of its own.
const utf8 = (text: string) => new TextEncoder().encode(text)
const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes)

describe('the secrets registry', () => {
  it('redacts nothing before a secret is registered, and is then the identity', () => {
    expect(hasSecrets()).toBe(false)
    const bytes = utf8('Bearer sk-not-yet-registered')
    expect(redactSecrets('Bearer sk-not-yet-registered')).toBe('Bearer sk-not-yet-registered')
    expect(redactSecretBytes(bytes)).toBe(bytes)
  })

  it('replaces every occurrence, as written and as a JSON string holds it', () => {
    registerSecret('sk-"quoted\\slash')
    expect(hasSecrets()).toBe(true)
    expect(redactSecrets('a sk-"quoted\\slash b sk-"quoted\\slash')).toBe('a [REDACTED] b [REDACTED]')
    // JSON.stringify escapes the quote and the backslash: "sk-\"quoted\\slash".
    expect(redactSecrets(JSON.stringify({ echoed: 'sk-"quoted\\slash' }))).toBe('{"echoed":"[REDACTED]"}')
  })

  it('replaces the longest secret first, so a value and a token in it leave no remnant', () => {
    registerSecret('tok-4242-4242')
    registerSecret('Bearer tok-4242-4242')
    expect(redactSecrets('got Bearer tok-4242-4242; token tok-4242-4242')).toBe('got [REDACTED]; token [REDACTED]')
  })

  it('refuses a secret shorter than 8 characters', () => {
    expect(() => registerSecret('1234567')).toThrow('a secret must hold at least 8 characters to be redacted reliably')
  })

  it('redacts bytes, binary around them included', () => {
    registerSecret('bytes-secret-99')
    const bytes = new Uint8Array([0, 255, ...utf8('bytes-secret-99'), 7, ...utf8('bytes-secret-99')])
    expect([...redactSecretBytes(bytes)]).toEqual([0, 255, ...utf8('[REDACTED]'), 7, ...utf8('[REDACTED]')])
  })

  it('redacts a secret split across written pieces, at every split point', () => {
    registerSecret('split-secret-77')
    const whole = 'head split-secret-77 middle split-secret-77'
    for (let cut = 1; cut < whole.length; cut++) {
      const parts = [utf8(whole.slice(0, cut)), utf8(whole.slice(cut))]
      expect(text(Buffer.concat([...redactSecretParts(parts)]))).toBe('head [REDACTED] middle [REDACTED]')
    }
    // One byte a piece.
    const bytewise = [...utf8(whole)].map((byte) => new Uint8Array([byte]))
    expect(text(Buffer.concat([...redactSecretParts(bytewise)]))).toBe('head [REDACTED] middle [REDACTED]')
  })

  it('redacts the strings of a parsed JSON value, keys included, whatever escapes the text used', () => {
    registerSecret('amp&secret-11')
    // Go's encoder writes & as \u0026: the text does not hold the secret, the parsed value does.
    const parsed: unknown = JSON.parse('{"answer":"key amp\\u0026secret-11","amp\\u0026secret-11":[1,"amp\\u0026secret-11"]}')
    expect(redactSecretsIn(parsed)).toEqual({ answer: 'key [REDACTED]', '[REDACTED]': [1, '[REDACTED]'] })
  })

  it('redacts the encodings a service may echo: base64, base64url, URL-encoding, hex, and base64 inside a longer text', () => {
    // Encodings worked out with Python's base64, urllib.parse and bytes.hex, not with the code under test.
    registerSecret('rag key/+&=ü~', '--a-env RAG_KEY')
    const echoed = [
      'base64 cmFnIGtleS8rJj3DvH4=',
      'base64url cmFnIGtleS8rJj3DvH4',
      'encodeURIComponent rag%20key%2F%2B%26%3D%C3%BC~',
      'encodeURI rag%20key/+&=%C3%BC~',
      'form rag+key%2F%2B%26%3D%C3%BC%7E',
      'hex 726167206b65792f2b263dc3bc7e HEX 726167206B65792F2B263DC3BC7E',
      // Basic auth, base64("user:" + secret): the secret starts at byte 5, its bytes 1..12 fill whole groups; the
      // partial groups around them ("cjpz": "r:s", "fg==": "~") still carry bits of it and are masked too.
      'basic dXNlcjpyYWcga2V5LysmPcO8fg==',
      // At the third alignment the two alphabets differ ("+" and "-"): base64 and base64url of "x" + secret.
      'shifted eHJhZyBrZXkvKyY9w7x+ eHJhZyBrZXkvKyY9w7x-',
    ].join('\n')
    const expected = [
      'base64 [REDACTED]',
      'base64url [REDACTED]',
      'encodeURIComponent [REDACTED]',
      'encodeURI [REDACTED]',
      'form [REDACTED]',
      'hex [REDACTED] HEX [REDACTED]',
      'basic dXNlc[REDACTED]',
      // "eHJh" is "xra": its last three characters carry bits of "ra".
      'shifted e[REDACTED] e[REDACTED]',
    ].join('\n')
    expect(redactSecrets(echoed)).toBe(expected)
    // Bytes are searched the same way (files written whole or in pieces).
    expect(text(redactSecretBytes(utf8(echoed)))).toBe(expected)
    expect(secretFinder()('Basic dXNlcjpyYWcga2V5LysmPcO8fg==')).toEqual(['--a-env RAG_KEY'])
  })

  it('finds the secrets a text holds, registered and not yet, by their sources', () => {
    registerSecret('finder-secret-21', 'headers.X-Api-Key')
    const find = secretFinder([{ source: '${env:RAG_KEY} (headers.Authorization)', value: 'attachments' }])
    expect(find('Open the attachments tab')).toEqual(['${env:RAG_KEY} (headers.Authorization)'])
    expect(find('hex 66696e6465722d7365637265742d3231')).toEqual(['headers.X-Api-Key'])
    expect(find('nothing here')).toEqual([])
    // A candidate is not registered by being looked for.
    expect(redactSecrets('attachments')).toBe('attachments')
  })
})
