import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import { pieceTokenCounts, TOKENIZER_NAME, TOKENIZER_VERSION } from './tokenizer.ts'
import { writeFileAtomic } from '../files/write-file-atomic.ts'

/** What each of the file's counts must be: a whole number of tokens. */
const isTokenCount = (value: unknown): boolean => Number.isInteger(value) && (value as number) >= 0

/** The token counts of a project's pieces, kept between runs; checked in one loop, zod's record parse being slow (docs/scaling.md, "Start-up"). */
const PieceCountsSchema = z.object({
  tokenizer: z.string(),
  version: z.string(),
  counts: z.custom<Record<string, number>>(
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value) && Object.values(value).every(isTokenCount),
  ),
})

/** The cache file under a cache folder: one per tokenizer and gpt-tokenizer version (a count may change with either). */
export function pieceCountsFile(cacheDir: string): string {
  return join(cacheDir, `tokens-${TOKENIZER_NAME}-${TOKENIZER_VERSION}.json`)
}

/** Reads the counts a previous run kept, so known texts never load the vocabulary; returns the pieces known. A bad file is a cold start. */
export function readPieceCounts(file: string): number {
  const known = pieceTokenCounts()
  try {
    const parsed = PieceCountsSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')))
    if (parsed.success && parsed.data.tokenizer === TOKENIZER_NAME && parsed.data.version === TOKENIZER_VERSION) {
      for (const [piece, tokens] of Object.entries(parsed.data.counts)) if (!known.has(piece)) known.set(piece, tokens)
    }
  } catch {
    // No cache yet.
  }
  return known.size
}

/** Writes the counts (atomically) when this process counted pieces the file did not hold (`knownBefore`: readPieceCounts' answer). */
export function writePieceCounts(file: string, knownBefore: number): void {
  const known = pieceTokenCounts()
  if (known.size === knownBefore) return
  writeFileAtomic(
    file,
    JSON.stringify({ tokenizer: TOKENIZER_NAME, version: TOKENIZER_VERSION, counts: Object.fromEntries(known) }),
  )
}

/**
 * The counts kept under `<root>/.cache/tokens/`, read into this process; `keep()` writes back the ones added (best
 * effort), so a command that chunks the corpus loads the vocabulary only for new texts.
 */
export function keptPieceCounts(root: string): { keep: () => void } {
  const file = pieceCountsFile(join(root, '.cache', 'tokens'))
  const knownBefore = readPieceCounts(file)
  return {
    keep: () => {
      try {
        writePieceCounts(file, knownBefore)
      } catch {
        // A read-only project: the next command counts again.
      }
    },
  }
}
