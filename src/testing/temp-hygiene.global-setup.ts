// Every test cleans up what it creates. The whole Vitest run gets a temp folder of its own
// (TMPDIR, inherited by every worker and child process); at the end, anything left in it fails the run,
// named, and the folder is removed, so a run leaves nothing in /tmp either way.
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export default function setup(): () => void {
  const outer = process.env.TMPDIR
  const dir = mkdtempSync(join(tmpdir(), 'rag-eval-test-run-'))
  process.env.TMPDIR = dir
  return () => {
    if (outer === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = outer
    // Tools' own caches (jiti's transpiled modules, tsx's) are not tests' leftovers.
    const left = readdirSync(dir).filter((name) => name !== 'jiti' && !/^tsx-\d+$/.test(name))
    rmSync(dir, { recursive: true, force: true })
    if (left.length > 0)
      throw new Error(
        `tests left ${left.length} temp entr${left.length === 1 ? 'y' : 'ies'} behind (each test must ` +
          `remove what it creates): ${left.sort().join(', ')}`,
      )
  }
}
