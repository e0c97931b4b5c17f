import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { registerSecret } from '../common/secrets.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { writeFileAtomic } from './write-file-atomic.ts'

const temp = useTempDirs()
const utf8 = (text: string) => new TextEncoder().encode(text)

describe('writeFileAtomic keeps the run’s secrets out of every file', () => {
  it('writes as given until a secret is registered, then redacts text, bytes and pieces', () => {
    const dir = temp.make('atomic-')
    writeFileAtomic(join(dir, 'before.txt'), 'key=file-secret-31337')
    expect(readFileSync(join(dir, 'before.txt'), 'utf8')).toBe('key=file-secret-31337')
    registerSecret('file-secret-31337')
    writeFileAtomic(join(dir, 'text.json'), JSON.stringify({ body: 'echo: file-secret-31337' }))
    writeFileAtomic(join(dir, 'bytes.bin'), utf8('a file-secret-31337 b'))
    writeFileAtomic(join(dir, 'parts.jsonl'), [utf8('{"x":"file-sec'), utf8('ret-31337"}\n')])
    expect(readFileSync(join(dir, 'text.json'), 'utf8')).toBe('{"body":"echo: [REDACTED]"}')
    expect(readFileSync(join(dir, 'bytes.bin'), 'utf8')).toBe('a [REDACTED] b')
    expect(readFileSync(join(dir, 'parts.jsonl'), 'utf8')).toBe('{"x":"[REDACTED]"}\n')
  })
})
