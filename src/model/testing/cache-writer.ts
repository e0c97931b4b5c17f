// A writer of the response cache for the concurrency test, run as a child process (argv: dir writer keys):
// puts the same keys as every other writer, each entry large (so a write is many syscalls) and signed
// with this writer's name.
import { DiskCache } from '../disk-cache.ts'
import type { StoredExchange } from '../exchange.ts'

/** The key of entry `i`: 64 hex digits, the same for every writer. */
export const cacheKey = (i: number) => i.toString(16).padStart(64, '0')

/** Entry `i` as `writer` stores it: its text names the writer and is ~200 KB. */
export function entryOf(i: number, writer: string): StoredExchange {
  return {
    key: cacheKey(i),
    subject: `q-${i}`,
    purpose: 'generate',
    role: 'generator',
    parts: { model: 'm', template: 't', schema: null, inputs: 'i', sample: 0, request: 'r' },
    response: {
      id: `msg-${writer}`,
      model: 'm',
      stopReason: 'end_turn',
      content: [{ type: 'text', text: `${writer} `.repeat(40_000) }],
      usage: { inputTokens: 1, outputTokens: 1, cacheReadTokens: 0, cacheWriteTokens: 0 },
    },
    latencyMs: 1,
    retries: 0,
    scripted: true,
  }
}

function writeAll(dir: string, writer: string, keys: number): void {
  const cache = new DiskCache(dir)
  for (let i = 0; i < keys; i++) cache.put(entryOf(i, writer), { writer })
}

const [dir, writer, keys] = process.argv.slice(2)
if (dir && writer && keys) writeAll(dir, writer, Number(keys))
