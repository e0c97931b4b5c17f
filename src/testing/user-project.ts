// A user's project in a temp folder: the packed package and Vitest installed with pnpm (from the local
// store when it has them, as CI's own install leaves it), commands run as a user would type them.
import { spawn } from 'node:child_process'
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export interface CommandResult {
  code: number | null
  stdout: string
  stderr: string
  /** stdout and stderr, in one string, for messages. */
  output: string
}

/** Runs a command in `cwd` and collects its output; never rejects on a non-zero exit. */
export function run(
  cwd: string,
  command: string,
  args: readonly string[],
  env: Record<string, string> = {},
): Promise<CommandResult> {
  return new Promise((resolve, reject) => {
    // CI=true would make pnpm refuse to create a lockfile and Vitest behave as in our own CI: a user's shell has neither.
    const child = spawn(command, args, {
      cwd,
      env: {
        ...process.env,
        CI: '',
        GATE: '',
        VITEST: '',
        VITEST_MODE: '',
        NODE_OPTIONS: '',
        NO_COLOR: '1',
        FORCE_COLOR: '0',
        ...env,
      },
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr, output: `${stdout}\n${stderr}` }))
  })
}

export interface TempProject {
  dir: string
  run(command: string, args: readonly string[], env?: Record<string, string>): Promise<CommandResult>
  remove(): void
}

/** An empty project folder in the temp folder (a package.json of an ES module project), and how to run commands in it and remove it. */
export function emptyProject(prefix: string, name = 'user-project'): TempProject {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }, null, 2))
  return {
    dir,
    run: (command, args, env) => run(dir, command, args, env),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  }
}

/**
 * A fresh project: `source` (an example folder) copied in, or empty; then the tarball and vitest added
 * with pnpm, plus `extra` packages. pnpm 12 runs no dependency build script unless allowed (esbuild's).
 */
export async function tempProject(tarball: string, options: { source?: string; extra?: string[] } = {}): Promise<TempProject> {
  const project = emptyProject('rag-eval-user-')
  try {
    if (options.source)
      cpSync(options.source, project.dir, {
        recursive: true,
        filter: (path) => !/node_modules|[/\\]reports$|[/\\]\.cache$/.test(path),
      })
    writeFileSync(join(project.dir, 'pnpm-workspace.yaml'), 'allowBuilds:\n  esbuild: true\n')
    const added = await project.run('pnpm', ['add', '--prefer-offline', tarball, 'vitest@4.1.12', ...(options.extra ?? [])])
    if (added.code !== 0) throw new Error(`pnpm add failed in ${project.dir}:\n${added.output}`)
    return project
  } catch (error) {
    project.remove()
    throw error
  }
}
