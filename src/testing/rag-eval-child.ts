import { spawn } from 'node:child_process'
import { ragEvalArgv } from './rag-eval-bin.ts'

/**
 * `rag-eval <args>` from this repository's sources in a child process (stdin closed), its output collected;
 * asynchronous, so a server in the test's own process (the local Messages API, a service) can answer it.
 */
export function ragEvalChild(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ragEvalArgv(args), {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}
