import { createRequire } from 'node:module'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { Jiti } from 'jiti'

/** Files Node loads itself: jiti hands them to Node's import() anyway (and Node caches them either way). */
const JAVASCRIPT_FILE = /\.[cm]?js$/

let loader: Jiti | undefined
/**
 * jiti through its CommonJS build, made on first need: as ESM, Node scans its whole bundle for export names at every
 * start-up (docs/scaling.md). No module cache: the user's config and system are read afresh each run (watch mode).
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
 * `file:line:column` of the first stack frame in the user's code. jiti's transform keeps TypeScript's lines but not its
 * columns (and Node applies no source map), so its frames give the line only.
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

/** Why a module failed to load, on one line that keeps the place (`file:line:column`, columns from 1 as editors count). */
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

/** A module's default export (else the module); a load failure is an Error with describeLoadFailure's line, cause attached. */
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
