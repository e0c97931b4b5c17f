import { spawn } from 'node:child_process'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { cacheThreadBundles } from '../../src/threads/index.ts'
import { watchTreeMemory, type TreeMemory } from './process-tree-memory.ts'

/** Vitest's bin (its package exports no path to it). */
const vitestBin = () => join(dirname(createRequire(import.meta.url).resolve('vitest/package.json')), 'vitest.mjs')

export interface VitestRun {
  code: number | null
  wallMs: number
  /** Peak memory of the process tree (Linux); null where it cannot be sampled. */
  memory: TreeMemory | null
  /** The last 400 kB of its stdout and stderr. */
  output: string
}

/**
 * `vitest <args>` as a user runs it (no CI, no GATE, no colour), timed from spawn to exit, its process
 * tree's memory sampled: what the benchmarks measure.
 */
export async function timeVitest(
  args: readonly string[],
  options: {
    cwd?: string
    env?: Record<string, string>
    /** Another project's Vitest (its vitest.mjs); default this repository's. */ bin?: string
  } = {},
): Promise<VitestRun> {
  // Before the clock starts: this repository's thread bundles for its sources as they are, as the package ships its own.
  await cacheThreadBundles()
  return new Promise((resolve, reject) => {
    const started = performance.now()
    const child = spawn(process.execPath, [options.bin ?? vitestBin(), ...args], {
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      env: { ...process.env, CI: '', GATE: '', EVAL_STRICT: '', NO_COLOR: '1', FORCE_COLOR: '0', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    const memory = watchTreeMemory(child.pid!)
    let output = ''
    child.stdout.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-400_000)))
    child.stderr.on('data', (d: Buffer) => (output = (output + d.toString()).slice(-400_000)))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, wallMs: performance.now() - started, memory: memory.stop(), output }))
  })
}
