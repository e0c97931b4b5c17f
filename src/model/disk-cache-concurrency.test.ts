import { spawn } from 'node:child_process'
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { DiskCache } from './disk-cache.ts'
import { cacheKey, entryOf } from './testing/cache-writer.ts'

const temp = useTempDirs()
const WRITER = fileURLToPath(new URL('./testing/cache-writer.ts', import.meta.url))
const KEYS = 200

function inProcess(dir: string, writer: string): Promise<number | null> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WRITER, dir, writer, String(KEYS)], { stdio: 'inherit' })
    child.on('error', reject)
    child.on('close', resolve)
  })
}

/** Every key holds one writer's whole entry (never a mix, never a half), and no temp file is left. */
function expectWholeEntries(dir: string, writers: readonly string[]): void {
  const cache = new DiskCache(dir)
  for (let i = 0; i < KEYS; i++) {
    const stored = cache.get(cacheKey(i))
    expect(stored, `entry ${i}`).not.toBeNull()
    const writer = stored!.response.id.slice('msg-'.length)
    expect(writers).toContain(writer)
    expect(stored).toEqual(entryOf(i, writer))
  }
  const leftovers = readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((name) => name.endsWith('.tmp'))
  expect(leftovers).toEqual([])
}

describe('the response cache under concurrent writers (shards on shared storage)', () => {
  it('two processes writing the same keys at once leave whole entries', async () => {
    const dir = temp.make('cache-writers-')
    expect(await Promise.all([inProcess(dir, 'a'), inProcess(dir, 'b')])).toEqual([0, 0])
    expectWholeEntries(dir, ['a', 'b'])
  })

  it('a writer elsewhere with the same pid (another container on the volume), mid-write, keeps its temp file', () => {
    const dir = temp.make('cache-writers-')
    const cache = new DiskCache(dir)
    const path = join(dir, cacheKey(0).slice(0, 2), `${cacheKey(0)}.json`)
    // The other writer has written its temp file and is about to rename it: the name it would have chosen is ours too.
    mkdirSync(dirname(path), { recursive: true })
    const theirs = `${path}.${process.pid}.tmp`
    writeFileSync(theirs, 'their entry')
    cache.put(entryOf(0, 'a'), {})
    expect(readFileSync(theirs, 'utf8')).toBe('their entry')
    expect(cache.get(cacheKey(0))).toEqual(entryOf(0, 'a'))
    rmSync(theirs)
  })
})
