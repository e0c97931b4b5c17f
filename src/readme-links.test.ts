// The README ships in the package (package.json "files"): what it points at must be there for a reader who
// has only this repository or only the installed package, never a file beside the repository (such as
// ../shared/DESIGN.md, where it once sent readers for the metric definitions).
import { existsSync, readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const readme = readFileSync('README.md', 'utf8')
const shipped = (JSON.parse(readFileSync('package.json', 'utf8')) as { files: string[] }).files

/** Repository paths the README names: markdown link targets and `docs/...` / `examples/...` mentions. */
function namedPaths(text: string): string[] {
  const links = [...text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)].map((m) => m[1]!)
  const mentions = [...text.matchAll(/(?<![\w./-])((?:docs|examples)\/[\w./-]*[\w/])/g)].map((m) => m[1]!)
  return [...new Set([...links, ...mentions])].filter((path) => !/^[a-z]+:/.test(path)).sort()
}

describe('README.md points only inside the repository, and its docs ship with it', () => {
  it('names no path outside the repository, and every path it names exists', () => {
    const paths = namedPaths(readme)
    expect(paths).toContain('docs/metrics.md')
    expect(paths).toContain('docs/knobs.md')
    expect(paths.filter((path) => path.startsWith('../') || path.startsWith('/'))).toEqual([])
    expect(readme).not.toMatch(/\.\.\/shared|DESIGN\.md/)
    expect(paths.filter((path) => !existsSync(path))).toEqual([])
  })

  it('every docs/*.md it names is in the package', () => {
    expect(shipped).toContain('docs/*.md')
    expect(shipped).toContain('README.md')
  })
})
