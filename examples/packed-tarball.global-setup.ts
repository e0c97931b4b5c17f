// The package project's files test one tarball: packed here once for them all (pnpm pack runs the build), so
// they can run as several files beside the other projects' instead of one file of a few minutes.
import type { TestProject } from 'vitest/node'
import { packTarball } from '../src/bench/packed-tarball.ts'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The packed package (a .tgz file), as `pnpm pack` wrote it for this run. */
    packedTarball: string
  }
}

export default function setup(project: TestProject): () => void {
  const { tarball, remove } = packTarball()
  project.provide('packedTarball', tarball)
  return remove
}
