// The package project's files test one tarball, packed here once for them all (pnpm pack runs the build), so they
// can run as several files beside the other projects' instead of one file of a few minutes. The pack runs in the
// background: the other projects' tests start at once, and a package file waits for it (packedTarball()).
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where the packed package appears: `ready/<name>.tgz` once packed, or `failed.txt` saying why not. */
    packedTarballFolder: string
  }
}

/** The folder's parts, shared with the files that wait for it (user-projects.ts): ready/path.txt names the tarball. */
export const READY = 'ready'
export const FAILED = 'failed.txt'

export default function setup(project: TestProject): () => Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'rag-eval-pack-'))
  project.provide('packedTarballFolder', folder)
  // RAG_EVAL_TARBALL names a ready one, as the benchmarks' packTarball (scripts/bench/) honours it: nothing to pack.
  const given = process.env.RAG_EVAL_TARBALL
  const packing = given ? Promise.resolve(publish(folder, given)) : pack(folder)
  return async () => {
    await packing
    rmSync(folder, { recursive: true, force: true })
  }
}

/** ready/ appears whole, with path.txt in it, by a rename: a reader sees it complete or not at all. */
function publish(folder: string, tarball: string): void {
  const staged = join(folder, 'staged')
  mkdirSync(staged)
  writeFileSync(join(staged, 'path.txt'), tarball)
  renameSync(staged, join(folder, READY))
}

/** `pnpm pack` into `<folder>/packing`, then published, or failed.txt written saying why. */
function pack(folder: string): Promise<void> {
  const packing = join(folder, 'packing')
  mkdirSync(packing)
  return new Promise((done) => {
    let stderr = ''
    const fail = (why: string) => {
      writeFileSync(join(folder, FAILED), why)
      done()
    }
    const child = spawn('pnpm', ['pack', '--pack-destination', packing], {
      stdio: ['ignore', 'ignore', 'pipe'],
      env: { ...process.env, CI: '' },
    })
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-8000)))
    child.on('error', (error) => fail(`pnpm pack could not start: ${error.message}`))
    child.on('close', (code) => {
      const tarball = readdirSync(packing).find((name) => name.endsWith('.tgz'))
      if (code !== 0 || tarball === undefined)
        return fail(`pnpm pack exited with code ${code}, tarball ${tarball ?? 'none'}:\n${stderr}`)
      publish(folder, join(packing, tarball))
      done()
    })
  })
}
