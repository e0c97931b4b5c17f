import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { Worker, type WorkerOptions } from 'node:worker_threads'
import type { Jiti } from 'jiti'
import { threadBundle } from './thread-bundle.ts'

/** Files Node loads itself: jiti hands them to Node's import() anyway (and Node caches them either way). */
const JAVASCRIPT_FILE = /\.[cm]?js$/

let loader: Jiti | undefined
/**
 * jiti, for TypeScript without tsx in the user's project, made on first need and through its CommonJS
 * build: importing it as ESM makes Node scan its 190 kB bundle for export names, a tenth of `rag-eval
 * retrieval`'s start-up. Its transforms are cached on disk (node_modules/.cache/jiti). Without a module
 * cache: the user's config and system are read as they are now (in watch mode, every run).
 */
function typeScriptLoader(): Jiti {
  return (loader ??= (createRequire(import.meta.url)('jiti') as typeof import('jiti')).createJiti(import.meta.url, { moduleCache: false, interopDefault: true }))
}

/** The default export of a TypeScript or JavaScript module (the module itself when it has none). */
export async function importModule(file: string): Promise<unknown> {
  if (JAVASCRIPT_FILE.test(file)) {
    try {
      const loaded = (await import(pathToFileURL(file).href)) as { default?: unknown }
      return loaded.default ?? loaded
    } catch (error) {
      // ESM syntax in a .js file of a CommonJS package, which Node before 20.19 does not detect: jiti transforms it.
      if (!(error instanceof SyntaxError)) throw error
    }
  }
  return typeScriptLoader().import(file, { default: true })
}

/**
 * A worker thread running one of this package's own modules, loaded by Node rather than by Vite's module
 * runner (which would transform the evaluation's 150 modules again on every run): from its bundle when
 * there is one (thread-bundle.ts), else natively when compiled, else (this repository's TypeScript before
 * its bundle is made) through jiti with its disk cache, every module of the graph loaded once. An error
 * while loading it (an unhandled rejection in the thread) reaches the thread's 'error' event.
 */
export function ownModuleThread(file: string, options: Pick<WorkerOptions, 'resourceLimits'> = {}): Worker {
  const bundled = threadBundle(file)
  if (bundled !== null || !file.endsWith('.ts')) return new Worker(pathToFileURL(bundled ?? file), options)
  const jiti = createRequire(import.meta.url).resolve('jiti')
  const load = `require(${JSON.stringify(jiti)}).createJiti(${JSON.stringify(import.meta.url)}, { moduleCache: true, interopDefault: true }).import(${JSON.stringify(file)})`
  return new Worker(load, { ...options, eval: true })
}
