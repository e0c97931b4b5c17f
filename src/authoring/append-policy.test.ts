import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { GoldenQuestion } from '../contract/golden-set-schema.ts'
import { readGoldenFile, goldenSetChanges, writeGoldenFile } from '../golden/append/golden-file-to-append.ts'
import { appendQuestion } from './add/compose-question.ts'
import { commitAppend } from './review/append-accepted.ts'

const q = (id: string, question = `Question ${id}?`): GoldenQuestion => ({ id, type: 'none', question, answerDocIds: [] })
const set = (...questions: object[]) => `${JSON.stringify({ questions }, null, 2)}\n`

let dir = ''
afterEach(() => rmSync(dir, { recursive: true, force: true }))
function file(text: string | null): string {
  dir = mkdtempSync(join(tmpdir(), 'golden-append-'))
  const path = join(dir, 'golden.json')
  if (text !== null) writeFileSync(path, text)
  return path
}

describe('the one append to the golden set: a file changed underneath is refused, naming what changed', () => {
  it('writes when the file holds what was read', () => {
    const before = set(q('q-001'))
    const path = file(before)
    writeGoldenFile(path, before, set(q('q-001'), q('q-002')), 'golden add')
    expect(readFileSync(path, 'utf8')).toBe(set(q('q-001'), q('q-002')))
  })

  it('names the questions added, removed and edited since the read, and leaves the file as it is', () => {
    const before = set(q('q-001'), q('q-002'), q('q-003'))
    const now = set(q('q-001', 'Reworded?'), q('q-003'), q('q-004'))
    const path = file(now)
    expect(() => writeGoldenFile(path, before, set(q('q-009')), 'golden add')).toThrow(
      `${path} changed since golden add read it (q-004 added; q-002 removed; q-001 edited); nothing written: run golden add again`,
    )
    expect(readFileSync(path, 'utf8')).toBe(now)
  })

  it('names a file created, deleted, broken or only re-laid out meanwhile', () => {
    expect(goldenSetChanges(null, set())).toBe('it was created')
    expect(goldenSetChanges(set(), null)).toBe('it was deleted')
    expect(goldenSetChanges(set(q('q-001')), '{')).toBe('it is no longer a golden set (invalid JSON or no questions array)')
    expect(goldenSetChanges(set(q('q-001')), JSON.stringify({ questions: [q('q-001')] }))).toBe(
      'its questions are the same, its text is not',
    )
  })

  it('golden review: commitAppend refuses the same way', () => {
    const before = set(q('q-001'))
    const path = file(set(q('q-001'), q('q-002')))
    const plan = { file: path, before, text: set(q('q-001'), q('q-003')), appended: [], refused: [] }
    expect(() => commitAppend(plan)).toThrow(
      `${path} changed since golden review read it (q-002 added); nothing written: run golden review again`,
    )
    expect(readFileSync(path, 'utf8')).toBe(set(q('q-001'), q('q-002')))
  })

  it('golden add: appends to the file as read; a question added meanwhile is refused, naming it, and the file kept', () => {
    const path = file(set(q('q-001')))
    const read = readGoldenFile(path, [], 'golden add')
    appendQuestion(path, read, q('q-002'), [])
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ questions: [q('q-001'), q('q-002')] })
    const again = readGoldenFile(path, [], 'golden add')
    const meanwhile = set(q('q-001'), q('q-002'), q('q-003'))
    writeFileSync(path, meanwhile)
    expect(() => appendQuestion(path, again, q('q-003', 'Another?'), [])).toThrow(
      `${path} changed since golden add read it (q-003 added); nothing written: run golden add again`,
    )
    expect(readFileSync(path, 'utf8')).toBe(meanwhile)
  })

  it('a file that appeared since the read (none when read) is refused, not overwritten', () => {
    const path = file(set(q('q-001')))
    expect(() => writeGoldenFile(path, null, set(q('q-002')), 'golden add')).toThrow('(it was created); nothing written')
    expect(readFileSync(path, 'utf8')).toBe(set(q('q-001')))
  })
})
