import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import type { Jiti } from 'jiti'

/** Files Node loads itself: jiti hands them to Node's import() anyway (and Node caches them either way). */
const JAVASCRIPT_FILE = /\.[cm]?js$/

let loader: Jiti | undefined
/**
 * jiti, for TypeScript without tsx in the user's project, made on first need and through its CommonJS
 * build: importing it as ESM makes Node scan its whole bundle for export names, a cost every start-up would
 * pay (docs/scaling.md). Its transforms are cached on disk (node_modules/.cache/jiti). Without a module
 * cache: the user's config and system are read as they are now (in watch mode, every run).
 */
function typeScriptLoader(): Jiti {
  return (loader ??= (createRequire(import.meta.url)('jiti') as typeof import('jiti')).createJiti(import.meta.url, {
    moduleCache: false,
    interopDefault: true,
  }))
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
