import { createRequire } from 'node:module'
import { basename } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker, type WorkerOptions } from 'node:worker_threads'
import { threadBundle } from './thread-bundle.ts'

/**
 * A worker thread running one of this package's own modules, loaded by Node, not Vite's module runner (which
 * transforms them again every run): from its bundle, else natively, else through jiti. A load error reaches 'error'.
 */
export function ownModuleThread(file: string, options: Pick<WorkerOptions, 'resourceLimits'> = {}): Worker {
  const main = basename(file).replace(/\.[cm]?[jt]s$/, '')
  started.set(main, (started.get(main) ?? 0) + 1)
  const bundled = threadBundle(file)
  if (bundled !== null || !file.endsWith('.ts')) return new Worker(pathToFileURL(bundled ?? file), options)
  const jiti = createRequire(import.meta.url).resolve('jiti')
  const load = `require(${JSON.stringify(jiti)}).createJiti(${JSON.stringify(import.meta.url)}, { moduleCache: true, interopDefault: true }).import(${JSON.stringify(file)})`
  return new Worker(load, { ...options, eval: true })
}

const started = new Map<string, number>()

/** The threads this process has started so far, by main module (`corpus-index-thread-main`: 1): what a test checks ran. */
export function threadsStarted(): Record<string, number> {
  return Object.fromEntries(started)
}
