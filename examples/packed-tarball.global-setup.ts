// The package project's files test one tarball, packed here once for them all (pnpm pack runs the build), so they
// can run as several files beside the other projects' instead of one file of a few minutes. The pack runs in the
// background: the other projects' tests start at once, and a package file waits for it (packedTarball()). A tarball
// is kept for the next run, named by the contents of everything that goes into it: the same sources are not packed twice.
import { spawn } from 'node:child_process'
import { createHash } from 'node:crypto'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
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

/** Where a packed tarball is kept for the next run, and what it is packed from: the build's inputs and the shipped files. */
const KEPT = resolve('node_modules', '.cache', 'rag-vitest-eval', 'tarball')
const PACKED_FROM = ['src', 'scripts', 'docs', 'evals/model-prices.json', 'evals/golden-set.schema.json', 'README.md']
const HOUR_MS = 60 * 60 * 1000
const PACKED_WITH = ['package.json', 'pnpm-lock.yaml', 'pnpm-workspace.yaml', 'tsconfig.json', 'tsconfig.build.json']

/** The contents of every file the tarball is built and packed from (a folder's files in a sorted order), hashed. */
function packedState(): string {
  const hash = createHash('sha256')
  const files = PACKED_FROM.flatMap((path) =>
    existsSync(path) && statSync(path).isDirectory()
      ? readdirSync(path, { recursive: true, encoding: 'utf8' })
          .map((name) => join(path, name))
          .filter((file) => statSync(file).isFile())
          .sort()
      : [path],
  )
  for (const file of [...files, ...PACKED_WITH])
    hash
      .update(`${file}\0`)
      .update(existsSync(file) ? readFileSync(file) : '\0absent')
      .update('\0')
  return hash.digest('hex').slice(0, 16)
}

export default function setup(project: TestProject): () => Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'rag-eval-pack-'))
  project.provide('packedTarballFolder', folder)
  // RAG_EVAL_TARBALL names a ready one, as the benchmarks' packTarball (scripts/bench/) honours it: nothing to pack.
  const given = process.env.RAG_EVAL_TARBALL
  const kept = join(KEPT, `${packedState()}.tgz`)
  const packing = given
    ? Promise.resolve(publish(folder, given))
    : existsSync(kept)
      ? Promise.resolve(publish(folder, touched(kept)))
      : pack(folder, kept)
  return async () => {
    await packing
    rmSync(folder, { recursive: true, force: true })
  }
}

/** The kept tarball, its time set to now: in use, so no other run removes it. */
function touched(kept: string): string {
  const now = new Date()
  utimesSync(kept, now, now)
  return kept
}

/** ready/ appears whole, with path.txt in it, by a rename: a reader sees it complete or not at all. */
function publish(folder: string, tarball: string): void {
  const staged = join(folder, 'staged')
  mkdirSync(staged)
  writeFileSync(join(staged, 'path.txt'), tarball)
  renameSync(staged, join(folder, READY))
}

/** `pnpm pack` into `<folder>/packing`, then published and kept as `kept` (the only one kept), or failed.txt written saying why. */
function pack(folder: string, kept: string): Promise<void> {
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
      keep(join(packing, tarball), kept)
      done()
    })
  })
}

/**
 * The tarball copied to `kept` whole (a rename), unless the sources changed while it was packed; the kept ones of other
 * sources that no run has used for an hour are removed (another run may be installing one).
 */
function keep(tarball: string, kept: string): void {
  if (!kept.endsWith(`${packedState()}.tgz`)) return
  mkdirSync(KEPT, { recursive: true })
  for (const other of readdirSync(KEPT).map((name) => join(KEPT, name)))
    if (Date.now() - statSync(other).mtimeMs > HOUR_MS) rmSync(other, { force: true })
  const staged = `${kept}.${process.pid}.tmp`
  copyFileSync(tarball, staged)
  renameSync(staged, kept)
}
