import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs'
import { basename, dirname, join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Plugin } from 'esbuild'

// A thread of this package's own loads one bundle instead of its modules one by one: it starts sooner and imported
// bindings are not jiti's getters (docs/scaling.md, "Start-up", "The threads run from bundles").

/** Packages a bundle leaves to Node: loaded only on demand (the SDK in live runs, the tokenizer's data), or a tool's own. */
const EXTERNAL = ['@anthropic-ai/sdk', 'gpt-tokenizer', 'jiti', 'esbuild', 'vitest', 'vite', '@vitest/*', '@inquirer/prompts']

/** `import.meta.url` of each bundled module, rewritten to its own file's URL (relative to the bundle's folder), so it still finds its siblings. */
function ownUrlPlugin(outdir: string): Plugin {
  return {
    name: 'own-import-meta-url',
    setup(build) {
      build.onLoad({ filter: /\.[cm]?[jt]s$/ }, (args) => {
        if (args.path.includes(`${sep}node_modules${sep}`)) return undefined
        const source = readFileSync(args.path, 'utf8')
        const url = `new URL(${JSON.stringify(relative(outdir, args.path).split(sep).join('/'))}, import.meta.url).href`
        return { contents: source.replaceAll('import.meta.url', url), loader: args.path.endsWith('.ts') ? 'ts' : 'js' }
      })
    },
  }
}

/** The bundle's file for a thread's main module: `<name>.mjs` in the folder (its lazily loaded parts beside it). */
function entryFile(folder: string, main: string): string {
  return join(folder, `${basename(main).replace(/\.[cm]?[jt]s$/, '')}.mjs`)
}

/** Bundles threads' main modules into `outdir`, a fresh folder, split at dynamic imports so what a run never uses is never loaded. */
export async function bundleThreads(mains: readonly string[], outdir: string): Promise<void> {
  const { build } = await import('esbuild')
  await build({
    entryPoints: [...mains],
    outdir,
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    outExtension: { '.js': '.mjs' },
    entryNames: '[name]',
    chunkNames: '[name]-[hash]',
    external: EXTERNAL,
    plugins: [ownUrlPlugin(outdir)],
    logLevel: 'silent',
  })
}

/** The folders of a compiled package (dist/) and of this repository's sources (src/): both hold threads/. */
const PACKAGE_CODE = fileURLToPath(new URL('..', import.meta.url))

/** The folder of dist/ where `pnpm build` puts the installed package's thread bundles. */
export const SHIPPED_FOLDER = 'threads'
const SHIPPED_BUNDLES = join(PACKAGE_CODE, SHIPPED_FOLDER)

/** This repository's bundles, one folder per state of the sources. */
const CACHED_BUNDLES = join(PACKAGE_CODE, '..', 'node_modules', '.cache', 'rag-vitest-eval', 'threads')

/** A bundle no run has made in an hour is no run's any more (an offline run takes seconds). */
const STALE_MS = 60 * 60 * 1000

/** The files under a folder whose names pass `wanted`, sorted (relative paths: Dirent.parentPath is newer than Node 20.0). */
function sourceFiles(folder: string, wanted: (name: string) => boolean): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .filter((path) => wanted(basename(path)))
    .map((path) => join(folder, path))
    .sort()
}

/** The state of a source folder (its TypeScript files, package.json and lockfile), from sizes and times only so checking is cheap: any edit is a new bundle. */
function sourceState(sources: string): string {
  const hash = createHash('sha256')
  const files = sourceFiles(sources, (name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
  for (const file of [...files, join(sources, '..', 'package.json'), join(sources, '..', 'pnpm-lock.yaml')]) {
    const stat = existsSync(file) ? statSync(file) : null
    hash.update(`${file}\0${stat?.size ?? -1}\0${stat?.mtimeMs ?? -1}\n`)
  }
  return hash.digest('hex').slice(0, 16)
}

/** Builds a bundle beside the ones readers may be loading (renamed into place whole), then drops the stale ones. */
async function cacheBundle(main: string, folder: string): Promise<void> {
  const parent = dirname(folder)
  const temp = `${folder}.${process.pid}.${Date.now()}.tmp`
  mkdirSync(parent, { recursive: true })
  try {
    await bundleThreads([main], temp)
    renameSync(temp, folder)
  } finally {
    // Renamed, or another process renamed the same bundle first, or the build failed.
    rmSync(temp, { recursive: true, force: true })
  }
  const now = Date.now()
  for (const other of readdirSync(parent)) {
    const path = join(parent, other)
    if (path !== folder && now - statSync(path).mtimeMs > STALE_MS) rmSync(path, { recursive: true, force: true })
  }
}

const building = new Map<string, Promise<void>>()
/**
 * The cached bundle of a TypeScript thread main for `sources` as they are now, or null while `building` makes it in
 * the background (it never rejects: a failed build leaves threads loading their modules as before).
 */
export function cachedThreadBundle(
  main: string,
  sources: string,
  cache: string,
): { file: string | null; building: Promise<void> | null } {
  const folder = join(cache, `${basename(main, '.ts')}-${sourceState(sources)}`)
  const file = entryFile(folder, main)
  if (existsSync(file)) return { file, building: null }
  let build = building.get(folder)
  if (build === undefined) {
    build = cacheBundle(main, folder).catch(() => {})
    building.set(folder, build)
  }
  return { file: null, building: build }
}

/** This package's thread mains under a folder (src/ or dist/): by convention, every `*-thread-main` module, and the evaluation host's entry (a child process runs its bundle too). */
export function threadMains(code: string, extension: 'ts' | 'js'): string[] {
  return sourceFiles(code, (name) => name.endsWith(`-thread-main.${extension}`) || name === `evaluation-host-main.${extension}`)
}

/** This repository's bundle of one of its TypeScript entry modules for the sources as they are now; the tests run the bin from it. */
export function sourceBundle(main: string): { file: string | null; building: Promise<void> | null } {
  return cachedThreadBundle(main, PACKAGE_CODE, CACHED_BUNDLES)
}

/** sourceBundle's file if it is built, else null: never starts a build. */
export function builtSourceBundle(main: string): string | null {
  const file = entryFile(join(CACHED_BUNDLES, `${basename(main, '.ts')}-${sourceState(PACKAGE_CODE)}`), main)
  return existsSync(file) ? file : null
}

/** Makes this repository's thread bundles now, so benchmarks time runs, not the first run after an edit. */
export async function cacheThreadBundles(): Promise<void> {
  if (!import.meta.url.endsWith('.ts')) return
  const builds = threadMains(PACKAGE_CODE, 'ts').map((main) => cachedThreadBundle(main, PACKAGE_CODE, CACHED_BUNDLES).building)
  await Promise.all(builds.filter((build) => build !== null))
}

/** The bundle to run a thread main from: the shipped one for compiled code, else the cached one of the current sources, or null. */
export function threadBundle(main: string): string | null {
  if (!main.endsWith('.ts')) {
    const shipped = entryFile(SHIPPED_BUNDLES, main)
    return existsSync(shipped) ? shipped : null
  }
  try {
    return cachedThreadBundle(main, PACKAGE_CODE, CACHED_BUNDLES).file
  } catch {
    // A cache: whatever goes wrong with it (an unreadable folder, say), the thread loads its modules instead.
    return null
  }
}
