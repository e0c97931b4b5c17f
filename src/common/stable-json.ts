import { createHash } from 'node:crypto'

/** JSON with object keys sorted at every level, so equal values always serialise to the same text. */
export function stableStringify(value: unknown): string {
  return JSON.stringify(sortKeys(value))
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys)
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return Object.fromEntries(entries.map(([k, v]) => [k, sortKeys(v)]))
  }
  return value
}

/** Full sha256 (hex) of a value's stable JSON: the content address of cache entries and recordings. */
export function sha256Of(value: unknown): string {
  return createHash('sha256').update(stableStringify(value)).digest('hex')
}
