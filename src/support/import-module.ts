import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import type { Jiti } from 'jiti'

/** Files Node loads itself: jiti hands them to Node's import() anyway (and Node caches them either way). */
const JAVASCRIPT_FILE = /\.[cm]?js$/

let jiti: Jiti | undefined
/**
 * One loader for the user's TypeScript (config file, system module) without tsx in their project, made
 * on first need and through jiti's CommonJS build: importing it as ESM makes Node scan its 190 kB bundle
 * for export names, a tenth of `rag-eval retrieval`'s start-up. Its transforms are cached on disk
 * (node_modules/.cache/jiti). No module cache: in watch mode every run reads the current files.
 */
function typeScriptLoader(): Jiti {
  return (jiti ??= (createRequire(import.meta.url)('jiti') as typeof import('jiti')).createJiti(import.meta.url, { moduleCache: false, interopDefault: true }))
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
