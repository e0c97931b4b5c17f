// The package as a user receives it: `pnpm pack` (which runs the build) into a temp folder (the package
// project's global setup packs once per test run; `pnpm bench:overhead` once per run).
// RAG_EVAL_TARBALL names a ready one.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export function packTarball(): { tarball: string; remove: () => void } {
  const given = process.env.RAG_EVAL_TARBALL
  if (given) return { tarball: given, remove: () => {} }
  const dir = mkdtempSync(join(tmpdir(), 'rag-eval-pack-'))
  const remove = () => rmSync(dir, { recursive: true, force: true })
  try {
    execFileSync('pnpm', ['pack', '--pack-destination', dir], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, CI: '' },
    })
    const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'))
    if (!tarball) throw new Error(`pnpm pack wrote no tarball into ${dir}`)
    return { tarball: join(dir, tarball), remove }
  } catch (error) {
    remove()
    throw error
  }
}
