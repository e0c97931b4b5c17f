import { writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { TrecError } from './errors'
import { parseQrels, readQrels } from './qrels'
import { parseRun, readRun } from './run'
import { useTempDirs } from '../testing/use-temp-dirs.ts'

/** Temp folders of this file's tests, removed after each test. */
const tempDirs = useTempDirs()

function tempFile(name: string, content: string): string {
  const path = join(tempDirs.make('trec-parse-'), name)
  writeFileSync(path, content)
  return path
}

describe('run parsing', () => {
  it('reads qid, docno and score; ignores Q0, rank and tag; accepts tabs and repeated spaces', () => {
    const run = parseRun('301\tQ0\tFR940202-2-00150\t104\t  2.129133\tSTANDARD\nq2  Q0 d1 x .5 t\n')
    expect(run.get('301')).toEqual([{ docno: 'FR940202-2-00150', score: 2.129133 }])
    expect(run.get('q2')).toEqual([{ docno: 'd1', score: 0.5 }])
  })

  it('rejects a docno retrieved twice for one query, naming file and line', () => {
    const text = 'q1 Q0 a 1 1.0 r\nq1 Q0 b 2 0.9 r\nq1 Q0 a 3 0.5 r\n'
    expect(() => parseRun(text, 'run.txt')).toThrowError(/^run\.txt:3: duplicate docno "a" for query "q1"/)
  })

  it('allows the same docno in different queries', () => {
    const run = parseRun('q1 Q0 a 1 1 r\nq2 Q0 a 1 1 r\nq1 Q0 b 2 0 r\n')
    expect(run.get('q1')?.map((result) => result.docno)).toEqual(['a', 'b'])
    expect(run.get('q2')?.map((result) => result.docno)).toEqual(['a'])
  })

  it('rejects a wrong number of columns, naming file, line and the expected format', () => {
    expect(() => parseRun('q1 Q0 a 1 1 r\nq1 Q0 b 2 0.5\n', 'run.txt')).toThrowError(
      'run.txt:2: expected 6 whitespace-separated fields "qid Q0 docno rank score tag", found 5',
    )
    expect(() => parseRun('q1 Q0 a 1 1 r extra\n', 'run.txt')).toThrowError(/^run\.txt:1: expected 6 .* found 7$/)
  })

  it('rejects a non-numeric score', () => {
    expect(() => parseRun('q1 Q0 a 1 abc r\n', 'run.txt')).toThrowError(/^run\.txt:1: score "abc" is not a number/)
    expect(() => parseRun('q1 Q0 a 1 NaN r\n')).toThrowError(/score "NaN" is not a number/)
    expect(() => parseRun('q1 Q0 a 1 0x10 r\n')).toThrowError(/score "0x10" is not a number/)
  })

  it('skips blank lines but counts them in line numbers', () => {
    expect(() => parseRun('q1 Q0 a 1 1 r\n\n   \nq1 Q0 a 2 1 r\n', 'r')).toThrowError(/^r:4: duplicate docno/)
  })

  it('splits on C whitespace only: a UTF-8 id containing byte 0xA0 stays one field', async () => {
    const path = tempFile('run', 'q1 Q0 d\u00e0 1 1 r\n') // "\u00e0" = C3 A0 in UTF-8
    const [result] = (await readRun(path)).get('q1')!
    expect(Buffer.from(result!.docno, 'latin1').toString('utf8')).toBe('d\u00e0')
  })

  it('streams files, handles CRLF, and names the file path in errors', async () => {
    const good = tempFile('run', 'q1 Q0 a 1 1 r\r\nq1 Q0 b 2 2 r\r\n')
    expect((await readRun(good)).get('q1')).toEqual([
      { docno: 'a', score: 1 },
      { docno: 'b', score: 2 },
    ])
    const bad = tempFile('run', 'q1 Q0 a 1 1 r\nq1 Q0 b 2 two r\n')
    await expect(readRun(bad)).rejects.toThrowError(`${bad}:2: score "two" is not a number`)
    await expect(readRun(join(tmpdir(), 'no-such-dir-trec', 'run'))).rejects.toThrowError(/^cannot read run file .*ENOENT/)
  })
})

describe('qrels parsing', () => {
  it('reads qid, docno and integer rel (including -1), ignoring the iteration column', () => {
    const qrels = parseQrels('301 0 CR93E-1282 1\n301 0 X 2\n302 Q0 Y -1\n')
    expect([...qrels.get('301')!]).toEqual([
      ['CR93E-1282', 1],
      ['X', 2],
    ])
    expect(qrels.get('302')!.get('Y')).toBe(-1)
  })

  it('rejects a wrong number of columns, naming file, line and the expected format', () => {
    expect(() => parseQrels('q1 0 a 1\nq1 0 b\n', 'qrels.txt')).toThrowError(
      'qrels.txt:2: expected 4 whitespace-separated fields "qid iter docno rel", found 3',
    )
  })

  it('rejects a rel that is not an integer', () => {
    expect(() => parseQrels('q1 0 a yes\n', 'qrels.txt')).toThrowError(/^qrels\.txt:1: rel "yes" is not an integer/)
    expect(() => parseQrels('q1 0 a 1.5\n', 'qrels.txt')).toThrowError(/^qrels\.txt:1: rel "1\.5" is not an integer/)
  })

  it('rejects the same docno judged twice for one query (trec_eval: duplicate docs)', () => {
    expect(() => parseQrels('q1 0 a 1\nq2 0 a 1\nq1 0 a 0\n', 'qrels.txt')).toThrowError(
      /^qrels\.txt:3: docno "a" is judged twice for query "q1"/,
    )
  })

  it('reports read errors as TrecError naming the file', async () => {
    const missing = join(tmpdir(), 'no-such-dir-trec', 'qrels')
    const error: unknown = await readQrels(missing).catch((caught: unknown) => caught)
    expect(error).toBeInstanceOf(TrecError)
    expect((error as TrecError).message).toContain(`cannot read qrels file ${missing}`)
  })
})
