// The shape of src/ that lets people change it safely (issue 10.9): one folder per stage, dependencies in
// one direction. Read from the import statements of the production files (tests and testing/ helpers aside).
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, normalize, relative, sep } from 'node:path'
import { describe, expect, it } from 'vitest'

const SRC = 'src'
const IMPORT = /(?:from|import)\s*\(?\s*'(\.[^']+)'/g

function productionFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : productionFiles(path)
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.global-setup.ts')
      ? [path]
      : []
  })
}

/** Every relative import of a production file: from (path under src/) -> to (path under src/). */
const imports = productionFiles(SRC).flatMap((file) =>
  [...readFileSync(file, 'utf8').matchAll(IMPORT)].map((match) => ({
    from: relative(SRC, file).split(sep).join('/'),
    to: relative(SRC, normalize(join(dirname(file), match[1]!)))
      .split(sep)
      .join('/'),
  })),
)
const folderOf = (path: string) => (path.includes('/') ? path.slice(0, path.indexOf('/')) : '.')

/** The folders `folder` depends on. */
function dependencies(): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>()
  for (const { from, to } of imports) {
    const [a, b] = [folderOf(from), folderOf(to)]
    if (a !== b) graph.set(a, (graph.get(a) ?? new Set()).add(b))
  }
  return graph
}

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

describe('the architecture of src/', () => {
  it('finds the imports it checks (the check would pass vacuously otherwise)', () => {
    expect(imports.length).toBeGreaterThan(300)
    expect(imports).toContainEqual({ from: 'run/evaluate.ts', to: 'system/rag-system.ts' })
  })

  it('production code imports nothing from a testing folder', () => {
    expect(imports.filter(({ to }) => to.split('/').includes('testing'))).toEqual([])
  })

  it('no two folders import each other, and no folder reaches itself through others', () => {
    expect(cycles(dependencies())).toEqual([])
  })

  it('the metrics, the summary and the gate do no I/O', () => {
    const pure = ['scoring', 'summary', 'statistics', 'gate/gate.ts', 'gate/metric-verdict.ts', 'gate/regression.ts']
    const io = /from 'node:(?:fs|child_process|net|http|https)'|\bfetch\(/
    const offenders = productionFiles(SRC)
      .map((file) => relative(SRC, file).split(sep).join('/'))
      .filter((path) => pure.some((p) => path === p || path.startsWith(`${p}/`)))
      .filter((path) => io.test(readFileSync(join(SRC, path), 'utf8')))
    expect(offenders).toEqual([])
  })
})
