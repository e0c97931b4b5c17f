import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { describe, expect, it } from 'vitest'
import { keptPieceCounts, pieceCountsFile, readPieceCounts, writePieceCounts } from './token-count-cache.ts'
import { countTextTokens, pieceTokenCounts, TOKENIZER_VERSION } from './tokenizer.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'

const temp = useTempDirs()

describe('the token counts kept between runs', () => {
  it('a run writes the pieces it counted; the next reads them and counts known pieces without the vocabulary', () => {
    const file = pieceCountsFile(temp.make('tokens-'))
    const before = readPieceCounts(file)
    const text = 'Escalation within fifteen minutes, unbelievably.'
    expect(countTextTokens(text)).toBe(countTokens(text))
    writePieceCounts(file, before)
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { tokenizer: string; version: string; counts: Record<string, number> }
    expect(kept).toMatchObject({ tokenizer: 'o200k_base', version: TOKENIZER_VERSION })
    expect(kept.counts[' unbelievably']).toBe(countTokens(' unbelievably'))
    // A piece the file says is 7 tokens is 7 from then on: the count came from the file, not the vocabulary.
    writeFileSync(file, JSON.stringify({ ...kept, counts: { zqxwvpiece: 7 } }))
    readPieceCounts(file)
    expect(countTextTokens('zqxwvpiece')).toBe(7)
  })

  it('a special-token string in a text is counted as text (a document about tokenizers is not refused)', () => {
    const text = 'The end marker <|endoftext|> closes a document; <|fim_prefix|> too.'
    expect(() => countTokens(text)).toThrow('Disallowed special token')
    expect(countTextTokens(text)).toBe(countTokens(text, { disallowedSpecial: new Set() }))
  })

  it('a file of another tokenizer or version, with a count that is not a whole number, or not JSON, is a cold start (nothing read, no error)', () => {
    const dir = temp.make('tokens-')
    const file = join(dir, 'foreign.json')
    for (const foreign of [
      { tokenizer: 'cl100k_base', version: TOKENIZER_VERSION },
      { tokenizer: 'o200k_base', version: '0.0.1' },
    ]) {
      writeFileSync(file, JSON.stringify({ ...foreign, counts: { qjxforeignpiece: 99 } }))
      readPieceCounts(file)
      expect(pieceTokenCounts().has('qjxforeignpiece')).toBe(false)
    }
    // A count that is not a whole number of tokens makes the whole file foreign.
    for (const counts of [{ qjxnegativepiece: -1 }, { qjxfractionpiece: 1.5 }, { qjxstringpiece: '2' }]) {
      writeFileSync(
        file,
        JSON.stringify({ tokenizer: 'o200k_base', version: TOKENIZER_VERSION, counts: { qjxgoodpiece: 3, ...counts } }),
      )
      readPieceCounts(file)
      expect(pieceTokenCounts().has('qjxgoodpiece')).toBe(false)
    }
    writeFileSync(file, JSON.stringify({ tokenizer: 'o200k_base', version: TOKENIZER_VERSION, counts: [3] }))
    // An array's "0" is not read as a count of 3 (the piece "0", counted elsewhere in this worker, is 1 token).
    readPieceCounts(file)
    expect(pieceTokenCounts().get('0') ?? countTokens('0')).toBe(countTokens('0'))
    writeFileSync(file, '{ not json')
    expect(() => readPieceCounts(file)).not.toThrow()
  })

  it("a command keeps its counts beside the evaluation's (<root>/.cache/tokens/), and one that cannot write them goes on", () => {
    const root = temp.make('tokens-root-')
    const file = pieceCountsFile(join(root, '.cache', 'tokens'))
    mkdirSync(join(root, '.cache', 'tokens'), { recursive: true })
    writeFileSync(file, JSON.stringify({ tokenizer: 'o200k_base', version: TOKENIZER_VERSION, counts: { qzkeptpiece: 5 } }))
    const counts = keptPieceCounts(root)
    // Read on the way in: the file's count is the count.
    expect(countTextTokens('qzkeptpiece')).toBe(5)
    expect(countTextTokens(' Overcommitment')).toBe(countTokens(' Overcommitment'))
    counts.keep()
    const kept = JSON.parse(readFileSync(file, 'utf8')) as { counts: Record<string, number> }
    expect(kept.counts).toMatchObject({ qzkeptpiece: 5, ' Overcommitment': countTokens(' Overcommitment') })
    // .cache is a file: nothing can be kept, and the command is not failed for it.
    const blocked = temp.make('tokens-blocked-')
    writeFileSync(join(blocked, '.cache'), '')
    const unwritable = keptPieceCounts(blocked)
    countTextTokens(' Underwhelmingly')
    expect(() => unwritable.keep()).not.toThrow()
    expect(readFileSync(join(blocked, '.cache'), 'utf8')).toBe('')
  })
})
