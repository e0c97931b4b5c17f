import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { byteStringToBuffer } from './byte-string'
import { rankResults } from './rank'
import { parseRun, readRun } from './run'
import { useTempDirs } from '../testing/use-temp-dirs.ts'

/** Temp folders of this file's tests, removed after each test. */
const tempDirs = useTempDirs()

describe('rankResults', () => {
  it('sorts by score descending, ties by docno in descending byte order, ignoring the rank column', () => {
    const run = parseRun(
      ['q1 Q0 d2 1 5.0 r', 'q1 Q0 d9 2 5.0 r', 'q1 Q0 d3 3 4.0 r', 'q1 Q0 d10 4 5 r', 'q1 Q0 d1 5 3.0 r', 'q1 Q0 D9 6 5 r'].join(
        '\n',
      ),
    )
    // "d9" > "d2" > "d10" > "D9" in strcmp order ('9' > '2' > '1'; 'd' > 'D')
    expect(rankResults(run.get('q1')!).map((result) => result.docno)).toEqual(['d9', 'd2', 'd10', 'D9', 'd3', 'd1'])
  })

  it('compares negative, exponent and infinite scores numerically', () => {
    const run = parseRun(['q Q0 a 1 -1 r', 'q Q0 b 1 1e-3 r', 'q Q0 c 1 0.01 r', 'q Q0 d 1 -inf r', 'q Q0 e 1 2 r'].join('\n'))
    expect(rankResults(run.get('q')!).map((result) => result.docno)).toEqual(['e', 'c', 'b', 'a', 'd'])
  })

  it('breaks ties by UTF-8 bytes, not UTF-16 code units, for files read from disk', async () => {
    const dir = tempDirs.make('trec-rank-')
    const path = join(dir, 'run')
    // bytes: U+1F600 = F0 9F 98 80, U+FF21 = EF BC A1, "z" = 7A. UTF-16 order would put U+FF21 first.
    writeFileSync(path, 'q1 Q0 z 1 1 r\nq1 Q0 \u{FF21} 2 1 r\nq1 Q0 \u{1F600} 3 1 r\n', 'utf8')
    const run = await readRun(path)
    const order = rankResults(run.get('q1')!).map((result) => byteStringToBuffer(result.docno).toString('utf8'))
    expect(order).toEqual(['\u{1F600}', '\u{FF21}', 'z'])
  })

  it('does not reorder its input', () => {
    const results = [
      { docno: 'a', score: 1 },
      { docno: 'b', score: 2 },
    ]
    rankResults(results)
    expect(results.map((result) => result.docno)).toEqual(['a', 'b'])
  })
})
