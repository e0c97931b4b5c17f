import { describe, expect, it } from 'vitest'
import { hasSecrets, redactSecretBytes, redactSecretParts, redactSecrets, redactSecretsIn, registerSecret } from './secrets.ts'

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
})
