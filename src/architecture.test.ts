// The shape of src/ that lets people change it safely, read from the code itself:
// each folder's README.md says what its production files may import (`May import: a, b`), the metrics, the
// aggregation, the gate and the contract reach no thread, process, file-system or network code even through
// other modules, threads live in threads/, the folders form no cycle, and production code never imports testing/.
// The imports are read with TypeScript's own parser, so `import type`, `import()`, `require()` and
// `export … from` are told apart exactly rather than guessed by a pattern.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize, relative, sep } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const SRC = 'src'

/** One import of a module: a relative one resolved to its path under src/, else the package or node: module named. */
interface Import {
  target: string
  /** Under src/ (a relative specifier), or a package or builtin. */
  local: boolean
  /** `import type`, `export type … from` or a `typeof import('…')` type: erased, so no code runs at run time. */
  typeOnly: boolean
}

/** What one module does itself that a pure layer must not: thread, process, file-system, network or machine code. */
interface ModuleFacts {
  imports: Import[]
  /** Globals that are thread, process or network code: fetch(), Atomics, SharedArrayBuffer, WebSocket, process. */
  globals: string[]
  /** import() or require() of a computed name: code nobody can read from the source. */
  computedLoads: number
}

const posix = (path: string) => path.split(sep).join('/')

/** Production files, and the helpers of src/testing/ (which follow their README too); tests and nested testing/ folders aside. */
function checkedFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'testing' && dir !== SRC ? [] : checkedFiles(path)
    return /\.ts$/.test(entry.name) && !/\.(test|d)\.ts$/.test(entry.name) && !entry.name.endsWith('.global-setup.ts')
      ? [path]
      : []
  })
}

/** A relative specifier of `from` as a path under src/: as written, with .ts added, or the folder's index.ts. */
function resolveLocal(from: string, specifier: string): string {
  const path = posix(normalize(join(dirname(from), specifier)))
  const found = [path, `${path}.ts`, `${path}/index.ts`].find((candidate) => existsSync(join(SRC, candidate)))
  if (!found) throw new Error(`src/${from} imports ${specifier}, which names no file of src/`)
  return found
}

const THREAD_PROCESS_NETWORK_GLOBALS = new Set(['fetch', 'Atomics', 'SharedArrayBuffer', 'WebSocket', 'process'])

/** The imports and the impure globals of one module's source (`path` under src/). */
export function readModule(path: string, source: string): ModuleFacts {
  const facts: ModuleFacts = { imports: [], globals: [], computedLoads: 0 }
  const add = (specifier: string, typeOnly: boolean) =>
    facts.imports.push(
      specifier.startsWith('.')
        ? { target: resolveLocal(path, specifier), local: true, typeOnly }
        : { target: specifier, local: false, typeOnly },
    )
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      // `import { type A } from` stays as `import {} from` under verbatimModuleSyntax: it still loads the module.
      add(node.moduleSpecifier.text, node.importClause?.isTypeOnly === true)
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, node.isTypeOnly)
    } else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) {
      add(node.argument.literal.text, true)
    } else if (ts.isCallExpression(node)) {
      const callee = node.expression
      const loads =
        callee.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(callee) && callee.text === 'require') ||
        (ts.isCallExpression(callee) && ts.isIdentifier(callee.expression) && callee.expression.text === 'createRequire')
      if (loads) {
        const [argument] = node.arguments
        if (argument && ts.isStringLiteralLike(argument)) add(argument.text, false)
        else facts.computedLoads++
      }
    } else if (ts.isIdentifier(node) && THREAD_PROCESS_NETWORK_GLOBALS.has(node.text) && isGlobalReference(node)) {
      facts.globals.push(node.text === 'fetch' ? 'fetch()' : node.text)
    }
    ts.forEachChild(node, visit)
  }
  visit(ts.createSourceFile(path, source, ts.ScriptTarget.Latest, true))
  return facts
}

/** An identifier read as a value of the global scope: not a property name, a declaration's name or a type. */
function isGlobalReference(node: ts.Identifier): boolean {
  const parent = node.parent
  if (ts.isPropertyAccessExpression(parent) && parent.name === node) return false
  if (ts.isPropertyAssignment(parent) || ts.isPropertySignature(parent) || ts.isMethodDeclaration(parent))
    return parent.name !== node
  if (ts.isVariableDeclaration(parent) || ts.isParameter(parent) || ts.isFunctionDeclaration(parent)) return parent.name !== node
  if (ts.isBindingElement(parent) || ts.isImportSpecifier(parent) || ts.isTypeReferenceNode(parent)) return false
  if (ts.isPropertyDeclaration(parent) || ts.isEnumMember(parent)) return parent.name !== node
  if (ts.isQualifiedName(parent) || ts.isTypeQueryNode(parent)) return false
  return true
}

const folderOf = (path: string) => (path.includes('/') ? path.slice(0, path.indexOf('/')) : '.')

const modules = new Map<string, ModuleFacts>(
  checkedFiles(SRC).map((file) => {
    const path = posix(relative(SRC, file))
    return [path, readModule(path, readFileSync(file, 'utf8'))]
  }),
)
const localImportsOf = (paths: string[]) =>
  paths.flatMap((from) => modules.get(from)!.imports.flatMap((imported) => (imported.local ? [{ from, ...imported }] : [])))
const production = [...modules.keys()].filter((path) => folderOf(path) !== 'testing')
const localImports = localImportsOf(production)

// ---------------------------------------------------------------------------------------------------------------
// The folders' READMEs: `May import: a, b` (or `none`) is the contract of each folder.

const FOLDERS = readdirSync(SRC, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort()
const MAY_IMPORT = /^May import: (.+)$/m

/** The folders each folder's README allows its production files to import; throws on a missing or malformed line. */
function allowedImports(): Map<string, Set<string>> {
  return new Map(
    FOLDERS.map((folder) => {
      const readme = join(SRC, folder, 'README.md')
      const line = existsSync(readme) ? MAY_IMPORT.exec(readFileSync(readme, 'utf8'))?.[1] : undefined
      if (line === undefined) throw new Error(`${readme}: no "May import: a, b" line (or "May import: none")`)
      const named = line.trim() === 'none' ? [] : line.split(',').map((name) => name.trim())
      const unknown = named.filter((name) => !FOLDERS.includes(name) || name === folder)
      if (unknown.length > 0) throw new Error(`${readme}: "May import" names ${unknown.join(', ')}, not another folder of src/`)
      return [folder, new Set(named)]
    }),
  )
}

/** src/index.ts, the public surface, re-exports the library: anything but what sits above it or serves tests. */
const ROOT_MAY_NOT_IMPORT = new Set(['cli', 'vitest', 'testing'])

// ---------------------------------------------------------------------------------------------------------------
// Pure layers: what no module they load at run time may do.

/** Node's modules that are thread, process, file-system, network or machine code, by what they are. */
const IMPURE_BUILTINS: Record<string, string> = {
  worker_threads: 'thread',
  cluster: 'process',
  child_process: 'process',
  fs: 'file-system',
  'fs/promises': 'file-system',
  net: 'network',
  http: 'network',
  https: 'network',
  http2: 'network',
  dgram: 'network',
  dns: 'network',
  tls: 'network',
  // The machine the code runs on (CPU count, temp folder, host name) is not an input: a pure function's result must
  // not depend on it. In src/ it is read only to size thread pools and to place temp files.
  os: 'machine',
}
/** Packages a pure module may load: each is known to do no I/O. Add one here only after reading what it does. */
const PURE_PACKAGES = new Set(['zod', 'stemmer', 'stopword'])
const packageName = (specifier: string) =>
  specifier
    .split('/')
    .slice(0, specifier.startsWith('@') ? 2 : 1)
    .join('/')

/** Why a module is impure by itself (thread, process, file-system, network or machine code), or null. */
export function impurity(facts: ModuleFacts): string | null {
  for (const imported of facts.imports) {
    if (imported.typeOnly || imported.local) continue
    const kind = IMPURE_BUILTINS[imported.target.replace(/^node:/, '')]
    if (kind) return `${imported.target} (${kind} code)`
    if (!imported.target.startsWith('node:') && !PURE_PACKAGES.has(packageName(imported.target)))
      return `${imported.target} (a package not known to be pure: PURE_PACKAGES in src/architecture.test.ts)`
  }
  if (facts.globals.length > 0) return `${facts.globals[0]} (thread, process or network code)`
  if (facts.computedLoads > 0) return 'import() or require() of a computed name (code nobody can check)'
  return null
}

/**
 * The shortest chain of run-time imports from `start` to a module `bad` says is impure, ending with why, or null.
 * Type-only imports are not followed: they are erased, so they load no code at run time.
 */
export function impureChain(
  start: string,
  importsOf: (path: string) => readonly Import[],
  bad: (path: string) => string | null,
): string[] | null {
  const previous = new Map<string, string | null>([[start, null]])
  const queue = [start]
  while (queue.length > 0) {
    const path = queue.shift()!
    const why = bad(path)
    if (why !== null) {
      const chain = [why]
      for (let at: string | null = path; at !== null; at = previous.get(at)!) chain.unshift(at)
      return chain
    }
    for (const { target, local, typeOnly } of importsOf(path)) {
      if (!local || typeOnly || previous.has(target)) continue
      previous.set(target, path)
      queue.push(target)
    }
  }
  return null
}

/** The pure layers (DESIGN.md: metrics, aggregation, the gate; and the shared contract), and their files that do I/O. */
const PURE_FOLDERS = ['scoring', 'summary', 'statistics', 'gate', 'contract']
/** The gate's I/O: reading and writing the baseline's files. Every other file of gate/ is pure, new ones included. */
const IMPURE_FILES_OF_PURE_FOLDERS = new Set(['gate/baseline-files.ts'])

const importsOf = (path: string) => modules.get(path)?.imports ?? []
const impurityOf = (path: string) => {
  const facts = modules.get(path)
  return facts ? impurity(facts) : null
}

// ---------------------------------------------------------------------------------------------------------------
// Threads in one place: only threads/ starts or coordinates threads.

const isThreadCode = (facts: ModuleFacts) =>
  facts.imports.some((imported) => !imported.typeOnly && imported.target === 'node:worker_threads') ||
  facts.globals.some((global) => global === 'Atomics' || global === 'SharedArrayBuffer')

// ---------------------------------------------------------------------------------------------------------------

/** Each folder that can reach itself through others, with the path that shows it. */
function cycles(graph: Map<string, Set<string>>): string[] {
  const found: string[] = []
  for (const start of [...graph.keys()].sort()) {
    const queue: string[][] = [[start]]
    const seen = new Set<string>()
    while (queue.length > 0) {
      const path = queue.shift()!
      for (const next of [...(graph.get(path.at(-1)!) ?? [])].sort()) {
        if (next === start) {
          found.push([...path, start].join(' -> '))
          queue.length = 0
          break
        }
        if (!seen.has(next)) {
          seen.add(next)
          queue.push([...path, next])
        }
      }
    }
  }
  return found
}

/** The folders each folder imports (`import type` included: a type is a dependency on the folder's design). */
function actualDependencies(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>()
  for (const { from, target } of localImports) {
    const [a, b] = [folderOf(from), folderOf(target)]
    if (a !== b) graph.set(a, (graph.get(a) ?? new Set()).add(b))
  }
  return graph
}

/** docs/architecture.md's table, in its order: folder -> its "may import" cell, as written. */
function documentedImports(): Map<string, string> {
  const rows = readFileSync('docs/architecture.md', 'utf8').matchAll(/^\|\s*`([a-z-]+)\/`\s*\|[^|\n]*\|\s*([^|\n]*?)\s*\|\s*$/gm)
  return new Map([...rows].map((row) => [row[1]!, row[2]!]))
}

describe('the architecture of src/', () => {
  it('finds the imports it checks (the checks would pass vacuously otherwise)', () => {
    expect(production.length).toBeGreaterThan(250)
    expect(localImports.filter((imported) => !imported.typeOnly).length).toBeGreaterThan(600)
    expect(localImports.filter((imported) => imported.typeOnly).length).toBeGreaterThan(200)
    expect(localImports).toContainEqual({ from: 'run/evaluate.ts', target: 'system/rag-system.ts', local: true, typeOnly: true })
    // A dynamic import() is an import: the CLI loads each subcommand only when it runs.
    expect(localImports).toContainEqual({ from: 'cli/dispatch.ts', target: 'cli/eval.ts', local: true, typeOnly: false })
  })

  it('production code imports nothing from a testing folder', () => {
    expect(
      localImports
        .filter(({ target }) => target.split('/').includes('testing'))
        .map(({ from, target }) => `${from} -> ${target}`),
    ).toEqual([])
  })

  it("each folder's production files import only their own folder and what its README.md's `May import` line names", () => {
    const allowed = allowedImports()
    const offenders = localImportsOf([...modules.keys()]).flatMap(({ from, target }) => {
      const [a, b] = [folderOf(from), folderOf(target)]
      if (a === b) return []
      if (a === '.')
        return ROOT_MAY_NOT_IMPORT.has(b)
          ? [`src/${from} imports ../${target}: the public surface imports nothing from ${b}/`]
          : []
      return allowed.get(a)!.has(b)
        ? []
        : [
            `src/${from} imports src/${target}: ${b}/ is not in src/${a}/README.md's "May import" line (edit it, or import otherwise)`,
          ]
    })
    expect(offenders).toEqual([])
  })

  it('every folder of src/ has a README.md, and the folders its `May import` lines allow form no cycle', () => {
    // Checking the allowed graph, not only today's imports, keeps a README from blessing an import that would close a loop.
    expect(cycles(allowedImports())).toEqual([])
    // Nothing imports upward: the Vitest glue and the bin import the library, never the other way.
    const upward = [...allowedImports()].filter(([, named]) => named.has('vitest') || named.has('cli')).map(([folder]) => folder)
    expect(upward).toEqual([])
  })

  it('no two folders import each other, and no folder reaches itself through others', () => {
    expect(cycles(actualDependencies())).toEqual([])
  })

  it('docs/architecture.md’s table lists every folder with its README’s `May import` line', () => {
    const documented = documentedImports()
    const expected = new Map(
      [...allowedImports()].map(([folder, named]) => [folder, named.size === 0 ? 'none' : [...named].join(', ')]),
    )
    expect(Object.fromEntries(documented)).toEqual(Object.fromEntries(expected))
    // Bottom to top: a folder comes after every folder it may import.
    const order = [...documented.keys()]
    const early = [...allowedImports()].flatMap(([folder, named]) =>
      [...named]
        .filter((other) => order.indexOf(other) > order.indexOf(folder))
        .map((other) => `${folder}/ is listed before ${other}/`),
    )
    expect(early).toEqual([])
  })

  it('the metrics, the aggregation, the gate and the contract load no thread, process, file-system or network code, even through other modules', () => {
    const roots = production.filter((path) => PURE_FOLDERS.includes(folderOf(path)) && !IMPURE_FILES_OF_PURE_FOLDERS.has(path))
    expect(roots.length).toBeGreaterThan(45)
    const offenders = roots.flatMap((root) => {
      const chain = impureChain(root, importsOf, impurityOf)
      return chain ? [chain.join(' -> ')] : []
    })
    expect(offenders).toEqual([])
  })

  it('the chain finder finds what the pure-layer check looks for in the real graph (it cannot pass vacuously)', () => {
    // The gate's baseline files, the one known I/O of a pure folder, are found at the first step.
    expect(impureChain('gate/baseline-files.ts', importsOf, impurityOf)).toEqual([
      'gate/baseline-files.ts',
      'node:fs (file-system code)',
    ])
    // The walk crosses folders and goes deeper than one import: faithfulness reaches text/'s span table through its analyzer.
    const deep = impureChain('scoring/generation/faithfulness.ts', importsOf, (path) =>
      path === 'text/span-table.ts' ? 'found' : null,
    )
    expect(deep?.length).toBeGreaterThan(3)
    expect([deep?.[0], deep?.at(-2), deep?.at(-1)]).toEqual(['scoring/generation/faithfulness.ts', 'text/span-table.ts', 'found'])
    // evaluate() does its I/O through other modules (it imports no fs itself): the chain names another module.
    const chain = impureChain('run/evaluate.ts', importsOf, (path) => (path === 'run/evaluate.ts' ? null : impurityOf(path)))
    expect(chain?.length).toBeGreaterThan(2)
    // Every module a chain names is real, and so is each step of it.
    for (const [index, path] of chain!.slice(0, -2).entries())
      expect(importsOf(path).some(({ target, typeOnly }) => target === chain![index + 1] && !typeOnly)).toBe(true)
  })

  it('threads are started and coordinated only in threads/', () => {
    expect(production.filter((path) => folderOf(path) !== 'threads' && isThreadCode(modules.get(path)!))).toEqual([])
  })

  it('one evaluation host: in vitest/, only evaluation-host.ts starts a process, and no module keeps state in globalThis', () => {
    const vitest = production.filter((path) => folderOf(path) === 'vitest')
    const starts = (path: string) =>
      modules.get(path)!.imports.some(({ target, typeOnly }) => !typeOnly && target === 'node:child_process')
    expect(vitest.filter(starts)).toEqual(['vitest/evaluation-host.ts'])
    expect(vitest.filter((path) => /\bglobalThis\b/.test(readFileSync(join(SRC, path), 'utf8')))).toEqual([])
  })
})

describe('the import reader and the chain finder', () => {
  const facts = (source: string) => readModule('scoring/x.ts', source)

  it('tells run-time imports from type-only ones, and sees import(), require() and re-exports', () => {
    const read = facts(
      [
        "import type { A } from '../contract/report-schema.ts'",
        "import { type B } from '../contract/gate-schema.ts'",
        "import { readFileSync } from 'node:fs'",
        "export { C } from './generation/refusal.ts'",
        "export type { D } from './generation/coverage.ts'",
        "type E = typeof import('../statistics/descriptive.ts')",
        "const f = () => import('../text/sentences.ts')",
        "const g = createRequire(import.meta.url)('yaml')",
        'const h = (name: string) => import(name)',
      ].join('\n'),
    )
    expect(read.imports).toEqual([
      { target: 'contract/report-schema.ts', local: true, typeOnly: true },
      { target: 'contract/gate-schema.ts', local: true, typeOnly: false },
      { target: 'node:fs', local: false, typeOnly: false },
      { target: 'scoring/generation/refusal.ts', local: true, typeOnly: false },
      { target: 'scoring/generation/coverage.ts', local: true, typeOnly: true },
      { target: 'statistics/descriptive.ts', local: true, typeOnly: true },
      { target: 'text/sentences.ts', local: true, typeOnly: false },
      { target: 'yaml', local: false, typeOnly: false },
    ])
    expect(read.computedLoads).toBe(1)
  })

  it('sees fetch(), Atomics, SharedArrayBuffer and process as globals, not as property names or comments', () => {
    expect(
      facts('// fetch() and SharedArrayBuffer in a comment\nconst o = { fetch: 1, process: 2 }; o.fetch; o.process').globals,
    ).toEqual([])
    expect(facts('const env = { process }; type F = typeof fetch').globals).toEqual(['process'])
    expect(facts("await fetch('http://x'); Atomics.load(a, 0); new SharedArrayBuffer(8); process.env.X").globals).toEqual([
      'fetch()',
      'Atomics',
      'SharedArrayBuffer',
      'process',
    ])
  })

  it('names each kind of impurity, and lets zod and node:path through', () => {
    const only = (target: string) => ({ imports: [{ target, local: false, typeOnly: false }], globals: [], computedLoads: 0 })
    expect(impurity(only('node:worker_threads'))).toBe('node:worker_threads (thread code)')
    expect(impurity(only('node:child_process'))).toBe('node:child_process (process code)')
    expect(impurity(only('node:fs/promises'))).toBe('node:fs/promises (file-system code)')
    expect(impurity(only('fs'))).toBe('fs (file-system code)')
    expect(impurity(only('node:https'))).toBe('node:https (network code)')
    expect(impurity(only('node:os'))).toBe('node:os (machine code)')
    expect(impurity(only('esbuild'))).toBe('esbuild (a package not known to be pure: PURE_PACKAGES in src/architecture.test.ts)')
    expect(impurity(only('zod'))).toBeNull()
    expect(impurity(only('node:path'))).toBeNull()
    expect(impurity({ ...only('zod'), globals: ['fetch()'] })).toBe('fetch() (thread, process or network code)')
    expect(impurity({ imports: [{ target: 'esbuild', local: false, typeOnly: true }], globals: [], computedLoads: 0 })).toBeNull()
  })

  it('finds the shortest run-time chain to an impure module and does not follow type-only imports', () => {
    // a -> b -> c -> node:fs (run time); a -> d (type only) -> node:net; a -> e -> f -> g -> node:fs (longer).
    const graph: Record<string, Import[]> = {
      a: [
        { target: 'd', local: true, typeOnly: true },
        { target: 'e', local: true, typeOnly: false },
        { target: 'b', local: true, typeOnly: false },
      ],
      b: [{ target: 'c', local: true, typeOnly: false }],
      c: [{ target: 'node:fs', local: false, typeOnly: false }],
      d: [{ target: 'node:net', local: false, typeOnly: false }],
      e: [{ target: 'f', local: true, typeOnly: false }],
      f: [{ target: 'g', local: true, typeOnly: false }],
      g: [{ target: 'node:fs', local: false, typeOnly: false }],
    }
    const importsIn = (path: string) => graph[path] ?? []
    const badIn = (path: string) => impurity({ imports: importsIn(path), globals: [], computedLoads: 0 })
    expect(impureChain('a', importsIn, badIn)).toEqual(['a', 'b', 'c', 'node:fs (file-system code)'])
    expect(impureChain('d', importsIn, badIn)).toEqual(['d', 'node:net (network code)'])
    // Without the run-time edge to b, the type-only edge to d still leads nowhere, and the longer chain is found.
    graph.a = graph.a!.filter(({ target }) => target !== 'b')
    expect(impureChain('a', importsIn, badIn)).toEqual(['a', 'e', 'f', 'g', 'node:fs (file-system code)'])
    graph.a = [{ target: 'd', local: true, typeOnly: true }]
    expect(impureChain('a', importsIn, badIn)).toBeNull()
  })
})
