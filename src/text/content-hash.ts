import { createHash } from 'node:crypto'

/** A short, stable content hash (sha256, first 16 hex digits) of the given parts, in order. */
export function contentHash(parts: readonly string[]): string {
  const hash = createHash('sha256')
  for (const part of parts) hash.update(part).update('\0')
  return hash.digest('hex').slice(0, 16)
}
