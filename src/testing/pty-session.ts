import { spawn } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'

/** A keystroke script: wait until `expect` is on the terminal (after the previous match), then type `send`. */
export interface PtyStep {
  expect: string
  send: string
}

export interface PtyResult {
  code: number
  /** Everything the program wrote to the terminal, ANSI escapes removed. */
  transcript: string
}

/** Keys as a terminal sends them. */
export const KEY = { enter: '\r', clearLine: '\u0015' } as const

/**
 * Runs `argv` in a pseudo-terminal (Python's standard pty module: src/testing/pty-session.py) and plays
 * `steps`, each keystroke sent once its prompt has appeared: events, never sleeps. Rejects with the
 * transcript when the program ends before an expected text appears.
 */
export function runInPty(
  argv: string[],
  options: { env: NodeJS.ProcessEnv; cwd: string; dir: string; steps: PtyStep[] },
): Promise<PtyResult> {
  const spec = join(options.dir, `pty-${randomUUID()}.json`)
  writeFileSync(spec, JSON.stringify({ argv, env: options.env, cwd: options.cwd, steps: options.steps }))
  return new Promise((resolve, reject) => {
    const child = spawn('python3', [join(import.meta.dirname, 'pty-session.py'), spec], { stdio: ['ignore', 'pipe', 'pipe'] })
    let out = ''
    let err = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`pty-session.py exited ${code}: ${err}`))
      const result = JSON.parse(out) as PtyResult | { error: string; transcript: string }
      if ('error' in result) return reject(new Error(`${result.error}\n--- transcript ---\n${result.transcript}`))
      resolve(result)
    })
  })
}
