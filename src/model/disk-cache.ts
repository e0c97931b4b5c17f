import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomic } from '../files/write-file-atomic.ts'
import { StoredExchangeSchema, type StoredExchange } from './exchange.ts'

/** What the model client needs of a response cache (DiskCache; a read-only view of it for the cost estimate's dry run). */
export interface ResponseCache {
  readonly dir: string
  get(key: string): StoredExchange | null
  put(exchange: StoredExchange, request: unknown): void
}

/** A view of a cache that reads and never writes. */
export function readOnlyCache(cache: ResponseCache): ResponseCache {
  return { dir: cache.dir, get: (key) => cache.get(key), put: () => {} }
}

/**
 * The content-addressed response cache: one file per call, written atomically the moment its response arrives, so a
 * killed run pays again only for what it had not received. An unreadable entry is a miss, never an error.
 */
export class DiskCache implements ResponseCache {
  constructor(readonly dir: string) {}

  #path(key: string): string {
    return join(this.dir, key.slice(0, 2), `${key}.json`)
  }

  get(key: string): StoredExchange | null {
    const path = this.#path(key)
    if (!existsSync(path)) return null
    try {
      const parsed = StoredExchangeSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')))
      return parsed.success && parsed.data.key === key ? parsed.data : null
    } catch {
      return null
    }
  }

  /** Stores the exchange, with the request beside it for whoever debugs a response. */
  put(exchange: StoredExchange, request: unknown): void {
    writeFileAtomic(this.#path(exchange.key), JSON.stringify({ ...exchange, request }, null, 1) + '\n')
  }
}
