// The package project's global setup: packs this repository once (pnpm pack runs the build), as a user
// would receive it, and hands the tarball to the tests, which install it into fresh temp projects.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  interface ProvidedContext {
    /** The packed package (.tgz) the tests install. */
    tarball: string
  }
}

export default function setup(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'rag-eval-pack-'))
  const given = process.env.RAG_EVAL_TARBALL
  if (given) {
    project.provide('tarball', given)
  } else {
    execFileSync('pnpm', ['pack', '--pack-destination', dir], { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, CI: '' } })
    const tarball = readdirSync(dir).find((name) => name.endsWith('.tgz'))
    if (!tarball) throw new Error(`pnpm pack wrote no tarball into ${dir}`)
    project.provide('tarball', join(dir, tarball))
  }
  return () => rmSync(dir, { recursive: true, force: true })
}
