import { mkdirSync, readdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { describe, expect, it } from 'vitest'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { bundleThreads, cachedThreadBundle } from './thread-bundle.ts'

// esbuild's builds and a worker thread's start take seconds on a busy machine: the verdict waits for them.

const temp = useTempDirs()

/** A thread main that reads a file beside one of its modules (by import.meta.url) and loads another module on demand. */
function writeThreadSources(root: string): string {
  const sources = join(root, 'src')
  mkdirSync(join(sources, 'words'), { recursive: true })
  writeFileSync(join(root, 'package.json'), '{ "type": "module" }\n')
  writeFileSync(join(sources, 'words', 'greeting.txt'), 'hello from beside greeting.ts')
  writeFileSync(
    join(sources, 'words', 'greeting.ts'),
    "import { readFileSync } from 'node:fs'\nexport const greeting = (): string => readFileSync(new URL('./greeting.txt', import.meta.url), 'utf8')\n",
  )
  writeFileSync(join(sources, 'lazy.ts'), "export const lazy: string = 'loaded on ' + 'demand'\n")
  writeFileSync(
    join(sources, 'demo-thread-main.ts'),
    "import { parentPort } from 'node:worker_threads'\nimport { greeting } from './words/greeting.ts'\nparentPort!.postMessage({ greeting: greeting(), lazy: (await import('./lazy.ts')).lazy })\n",
  )
  return sources
}

function runThread(file: string): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(pathToFileURL(file))
    worker.once('message', (message) => void worker.terminate().then(() => resolve(message)))
    worker.once('error', reject)
  })
}

describe('bundleThreads', () => {
  it('bundles a thread main whose modules still find their own files, with what it imports on demand in a chunk of its own', async () => {
    const root = temp.make('thread-bundle-')
    const sources = writeThreadSources(root)
    const out = join(root, 'out')
    await bundleThreads([join(sources, 'demo-thread-main.ts')], out)
    const files = readdirSync(out)
    expect(files).toContain('demo-thread-main.mjs')
    expect(files.some((file) => /^lazy-[A-Z0-9]+\.mjs$/.test(file))).toBe(true)
    expect(readFileSync(join(out, 'demo-thread-main.mjs'), 'utf8')).not.toContain('loaded on')
    expect(await runThread(join(out, 'demo-thread-main.mjs'))).toEqual({
      greeting: 'hello from beside greeting.ts',
      lazy: 'loaded on demand',
    })
  })
})

describe('cachedThreadBundle', () => {
  it('has no bundle until its build is done, then the built one, and a new one once a source changes', async () => {
    const root = temp.make('thread-bundle-cache-')
    const sources = writeThreadSources(root)
    const main = join(sources, 'demo-thread-main.ts')
    const cache = join(root, 'cache')
    const first = cachedThreadBundle(main, sources, cache)
    expect(first.file).toBeNull()
    expect(cachedThreadBundle(main, sources, cache).building).toBe(first.building)
    await first.building
    const built = cachedThreadBundle(main, sources, cache)
    expect(built.building).toBeNull()
    expect(built.file).toMatch(/demo-thread-main-[0-9a-f]{16}[/\\]demo-thread-main\.mjs$/)
    expect(await runThread(built.file!)).toEqual({ greeting: 'hello from beside greeting.ts', lazy: 'loaded on demand' })

    writeFileSync(join(sources, 'lazy.ts'), "export const lazy: string = 'edited'\n")
    utimesSync(join(sources, 'lazy.ts'), new Date(), new Date(Date.now() + 5000))
    const edited = cachedThreadBundle(main, sources, cache)
    expect(edited.file).toBeNull()
    await edited.building
    const rebuilt = cachedThreadBundle(main, sources, cache).file
    expect(rebuilt).not.toBe(built.file)
    expect(await runThread(rebuilt!)).toEqual({ greeting: 'hello from beside greeting.ts', lazy: 'edited' })
    // The earlier bundle stays for a reader that may still be loading it (it goes once it is an hour old).
    expect(readdirSync(cache).sort()).toHaveLength(2)
  })
})
