// What the package project's files share: a fresh user project with the packed tarball installed (removed after
// each test), the commands a user types in it, and the reading of what they write.
import { existsSync, readFileSync, watch } from 'node:fs'
import { once } from 'node:events'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { afterEach, inject } from 'vitest'
import { FAILED, READY } from './packed-tarball.global-setup.ts'
import { ReportSchema } from '../src/contract/report-schema.ts'
import { tempProject, type TempProject } from '../src/testing/user-project.ts'

let tarball: Promise<string> | undefined
/** The tarball the package project's global setup packs (packed-tarball.global-setup.ts), once it is packed. */
export function packedTarball(): Promise<string> {
  return (tarball ??= waitForTarball(inject('packedTarballFolder')))
}

async function waitForTarball(folder: string): Promise<string> {
  // Watching before looking: an entry made in between is seen either way.
  const watcher = watch(folder)
  try {
    for (;;) {
      if (existsSync(join(folder, READY))) return readFileSync(join(folder, READY, 'path.txt'), 'utf8')
      if (existsSync(join(folder, FAILED)))
        throw new Error(`the package was not packed: ${readFileSync(join(folder, FAILED), 'utf8')}`)
      await once(watcher, 'change')
    }
  } finally {
    watcher.close()
  }
}

/** `userProject(source?, extra?)`: a fresh project (an example folder copied in, or empty) with the tarball and `extra` installed, removed after the test. */
export function useUserProjects(): (source?: string, extra?: string[]) => Promise<TempProject> {
  const projects: TempProject[] = []
  afterEach(() => {
    for (const project of projects.splice(0)) project.remove()
  })
  return async (source, extra) => {
    const project = await tempProject(await packedTarball(), { ...(source ? { source } : {}), ...(extra ? { extra } : {}) })
    projects.push(project)
    return project
  }
}

export const vitest = (project: TempProject, args: string[], env: Record<string, string> = {}) =>
  project.run(join(project.dir, 'node_modules/.bin/vitest'), ['run', '--reporter=verbose', ...args], env)
export const ragEval = (project: TempProject, args: string[], env: Record<string, string> = {}) =>
  project.run(join(project.dir, 'node_modules/.bin/rag-eval'), args, env)
export const readReport = (file: string) => ReportSchema.parse(JSON.parse(readFileSync(file, 'utf8')))
export const committed = (example: string, file: string) => readFileSync(join('examples', example, 'baseline', file), 'utf8')

/**
 * The stack frames in a run's output that name a file of the installed package (`...node_modules/rag-vitest-eval/<path>:<line>:<column>`):
 * the path inside the package, whether that file is installed and has that line.
 */
export function packageFrames(
  output: string,
  projectDir: string,
): { text: string; shipped: string; exists: boolean; lineExists: boolean }[] {
  return [...output.matchAll(/(\S*node_modules\/rag-vitest-eval\/([^\s:()]+)):(\d+):\d+/g)].map((m) => {
    const file = join(projectDir, m[1]!)
    const exists = existsSync(file)
    return {
      text: m[0],
      shipped: m[2]!,
      exists,
      lineExists: exists && readFileSync(file, 'utf8').split('\n').length >= Number(m[3]),
    }
  })
}

/** A TCP port nobody listens on now (the OS's choice). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}
