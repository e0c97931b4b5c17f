import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
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

/** jiti's syntax error: `ParseError: <what>` and, on the next line, `<file>:<line>:<column from 0>` (Babel's). */
const JITI_SYNTAX_ERROR =
  /^(?:\w*Error: )?(?:ParseError|SyntaxError): (?<what>.*?)\s*\n\s*(?<file>.+):(?<line>\d+):(?<column>\d+)\s*$/s

/** This package's own code (src/ here, dist/ installed): a frame there is where the loading was asked for, not the module's. */
const PACKAGE_CODE = fileURLToPath(new URL('..', import.meta.url))

/**
 * `file:line:column` of the first stack frame in the user's code (not Node's, an installed package's or
 * this package's): where it threw. TypeScript runs as jiti's transform of it, which keeps the lines but not
 * the columns (types removed, a prefix on line 1; Node applies no source map to it): its frames give the line.
 */
function ownFrame(stack: string | undefined): string | null {
  for (const line of (stack ?? '').split('\n').slice(1)) {
    const frame = /^\s*at (?:.*? \()?(?<place>(?:file:\/\/)?[^()\s]+):(?<line>\d+):(?<column>\d+)\)?$/.exec(line)?.groups
    if (!frame?.place || frame.place.startsWith('node:') || /[\\/]node_modules[\\/]/.test(frame.place)) continue
    const path = frame.place.startsWith('file://') ? fileURLToPath(frame.place) : frame.place
    if (path.startsWith(PACKAGE_CODE)) continue
    return /\.[cm]?tsx?$/.test(path) ? `${path}:${frame.line}` : `${path}:${frame.line}:${frame.column}`
  }
  return null
}

/**
 * Why a module failed to load, on one line that keeps the place: a syntax error as
 * `file:line:column: syntax error: <what>` (columns from 1, as editors count them), an error its code
 * threw while loading with the place it was thrown at (`file:line`, and the column where it is exact).
 */
export function describeLoadFailure(error: unknown): string {
  if (!(error instanceof Error)) return String(error)
  const syntax = JITI_SYNTAX_ERROR.exec(error.message)?.groups
  if (syntax) return `${syntax.file}:${syntax.line}:${Number(syntax.column) + 1}: syntax error: ${syntax.what}`
  const first = error.message.split('\n')[0]!
  // A module that imports one not found: the importer is the place (a frame there points into jiti's transform of it).
  const importer = (error as { requireStack?: unknown }).requireStack
  if (Array.isArray(importer) && typeof importer[0] === 'string' && !importer[0].startsWith(PACKAGE_CODE))
    return `${first} (imported by ${importer[0]})`
  const frame = ownFrame(error.stack)
  return frame === null || first.includes(frame) ? first : `${first} (at ${frame})`
}

/**
 * The default export of a TypeScript or JavaScript module (the module itself when it has none). A
 * failure to load it is an Error whose message is describeLoadFailure's line, the original its cause.
 */
export async function importModule(file: string): Promise<unknown> {
  try {
    return await loadModule(file)
  } catch (error) {
    throw new Error(describeLoadFailure(error), { cause: error })
  }
}

async function loadModule(file: string): Promise<unknown> {
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
