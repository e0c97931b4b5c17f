import { spawn } from 'node:child_process'
import { statSync } from 'node:fs'
import { Socket } from 'node:net'
import { createInterface } from 'node:readline'
import { InputError } from '../contract/input-error.ts'
import { redactSecrets } from '../common/secrets.ts'
import { isGroupAlive, signalGroup } from './process-group.ts'
import { startWatchdog } from './service-watchdog.ts'
import { parseServiceUrl } from './service-url.ts'

export interface ServiceOptions {
  /** Shell command that starts the service, e.g. "python3 service.py". */
  command: string
  /** The url the suite will POST to; its origin is the default readyUrl. */
  url: string
  /** Polled with GET until it answers; default: the url's origin (e.g. http://127.0.0.1:8000/). */
  readyUrl?: string
  /** How long to wait for the service to answer (default 30000). */
  timeoutMs?: number
  /** Folder the command runs in. */
  cwd: string
  /** Extra environment for the command, over `baseEnv`. */
  env?: NodeJS.ProcessEnv
  /** The environment the command inherits (default this process's, e.g. a compared side's), less what Vitest adds. */
  baseEnv?: NodeJS.ProcessEnv
  /** Receives each line the service prints (stdout and stderr), prefixed "[service] ". */
  log?: (line: string) => void
  /** When something already answers at readyUrl: use it (and never stop it) instead of failing. */
  reuseExisting?: boolean
  /** Between SIGTERM and SIGKILL when stopping (default 5000). */
  graceMs?: number
}

export interface RunningService {
  /** The service's process group id (the shell's pid); null when an already running service was reused. */
  readonly pid: number | null
  /** Ends the whole process group (SIGTERM, SIGKILL after the grace period) and resolves once it is gone. Idempotent. */
  stop(): Promise<void>
}

const DEFAULT_TIMEOUT_MS = 30_000
const DEFAULT_GRACE_MS = 5_000
const POLL_MS = 100
const PROBE_TIMEOUT_MS = 2_000
/** After SIGKILL a group is gone within milliseconds; this only bounds the wait if the kernel is slow to reap. */
const KILL_WAIT_MS = 2_000
const LAST_LINES = 10
/** A gateway in front of a service that is not up yet, or a service that says it is still warming up. */
const NOT_READY_STATUSES = new Set([502, 503, 504])

/** What Vitest sets in its own process (a started service gets the same environment under `vitest run` and `rag-eval eval`). */
const VITEST_VARIABLES = ['VITEST', 'TEST', 'MODE', 'BASE_URL', 'PROD', 'DEV', 'SSR', 'VITEST_POOL_ID', 'VITEST_WORKER_ID']

/** `env` without what Vitest added to it (NODE_ENV only when 'test', Vitest's default); unchanged outside Vitest. */
export function withoutVitestVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (env.VITEST === undefined) return env
  const cleaned = { ...env }
  for (const name of VITEST_VARIABLES) delete cleaned[name]
  if (cleaned.NODE_ENV === 'test') delete cleaned.NODE_ENV
  return cleaned
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The status of a GET, or null when nothing answered (refused, reset, no answer within the limit). */
async function probe(url: string, timeoutMs: number): Promise<number | null> {
  try {
    const response = await fetch(url, { signal: AbortSignal.timeout(Math.max(1, timeoutMs)) })
    await response.body?.cancel()
    return response.status
  } catch {
    return null
  }
}

/** Polls `done` every 50 ms; true once it holds, false when `ms` passed first. */
async function waitUntil(done: () => boolean, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms
  while (!done()) {
    if (Date.now() >= deadline) return false
    await sleep(50)
  }
  return true
}

/**
 * Starts the user's service in a process group of its own, like Playwright's webServer, and waits until readyUrl
 * answers; stop() ends the whole group, which also dies with this process (docs/your-pipeline.md, "Ready").
 */
export async function startService(options: ServiceOptions): Promise<RunningService> {
  const { command, cwd } = options
  const named = `service ${JSON.stringify(command)}`
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const graceMs = options.graceMs ?? DEFAULT_GRACE_MS
  const readyUrl = options.readyUrl ?? `${parseServiceUrl(`${named}: url`, options.url).origin}/`
  parseServiceUrl(`${named}: readyUrl`, readyUrl)

  if ((await probe(readyUrl, PROBE_TIMEOUT_MS)) !== null) {
    if (options.reuseExisting) return { pid: null, stop: async () => undefined }
    throw new InputError(
      `${named} was not started: something already answers at ${readyUrl} (the port is in use, or the service is already running); stop it, or set reuseExisting: true to evaluate the running service`,
    )
  }
  let isFolder = false
  try {
    isFolder = statSync(cwd).isDirectory()
  } catch {
    // reported below
  }
  if (!isFolder) throw new InputError(`${named}: its folder (cwd) ${cwd} is not a folder`)

  const service = spawnServiceGroup(options)
  const group = service.child.pid
  if (group === undefined) {
    await service.exited
    throw new InputError(`${named} could not be started: ${service.exit()?.error?.message ?? 'no process id'}`)
  }
  const stop = groupStopper(group, graceMs)
  await waitUntilReady(service, stop, { named, readyUrl, timeoutMs })
  service.child.on('exit', (code, signal) => {
    if (!stop.started())
      options.log?.(`[service] ${named} exited ${signal ? `on ${signal}` : `with code ${code}`} during the run`)
  })
  return { pid: group, stop }
}

interface ServiceExit {
  code: number | null
  signal: NodeJS.Signals | null
  error?: Error
}

/** Runs the command through the shell in a process group of its own, keeping its last output lines for error messages. */
function spawnServiceGroup(options: ServiceOptions) {
  const child = spawn(options.command, {
    cwd: options.cwd,
    env: { ...withoutVitestVariables(options.baseEnv ?? process.env), ...options.env },
    shell: true,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  // Unreferenced: a caller that forgets stop() does not hang; the exit handler and the watchdog still end the group.
  child.unref()
  const lastLines: string[] = []
  for (const stream of [child.stdout, child.stderr]) {
    if (stream instanceof Socket) stream.unref()
    // A service may log the requests it gets, headers and all: its lines are redacted as they arrive.
    createInterface({ input: stream }).on('line', (printed) => {
      const line = redactSecrets(printed)
      lastLines.push(line)
      if (lastLines.length > LAST_LINES) lastLines.shift()
      options.log?.(`[service] ${line}`)
    })
  }
  const lastOutput = () =>
    lastLines.length === 0 ? 'last output: (none)' : `last output:\n${lastLines.map((line) => `  ${line}`).join('\n')}`

  let exit: ServiceExit | null = null
  // 'close' waits for the pipes to drain; only a process that left the group (setsid) could hold them open after
  // stop(), hence the bound (no speed budget: the group's own output drains whatever the load).
  const exited = new Promise<void>((resolve) => {
    child.on('exit', (code, signal) => {
      exit = { code, signal }
      resolve()
    })
    child.on('error', (error) => {
      exit = { code: null, signal: null, error }
      resolve()
    })
  })
  const outputDrained = new Promise<void>((resolve) => child.on('close', () => resolve()))
  const drained = async () => {
    let bound: NodeJS.Timeout | undefined
    await Promise.race([outputDrained, new Promise((resolve) => (bound = setTimeout(resolve, KILL_WAIT_MS)))])
    clearTimeout(bound)
  }
  return { child, exited, exit: (): ServiceExit | null => exit, drained, lastOutput }
}

/**
 * stop() for a started group, once: SIGTERM, then SIGKILL after graceMs. Until then exit, SIGINT and SIGTERM
 * handlers and a detached watchdog stop the group if this process dies.
 */
function groupStopper(group: number, graceMs: number): (() => Promise<void>) & { started: () => boolean } {
  const stopWatchdog = startWatchdog(group, graceMs)
  const onExit = () => signalGroup(group, 'SIGTERM')
  const onSignal = (signal: NodeJS.Signals) => {
    signalGroup(group, 'SIGTERM')
    removeHandlers()
    // With no other listener left, Node's default (terminate) would not happen because we listened: do it.
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal)
  }
  const removeHandlers = () => {
    process.off('exit', onExit)
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
  }
  process.on('exit', onExit)
  process.on('SIGINT', onSignal)
  process.on('SIGTERM', onSignal)

  let stopping: Promise<void> | null = null
  const stop = () =>
    (stopping ??= (async () => {
      removeHandlers()
      signalGroup(group, 'SIGTERM')
      if (!(await waitUntil(() => !isGroupAlive(group), graceMs))) {
        signalGroup(group, 'SIGKILL')
        await waitUntil(() => !isGroupAlive(group), KILL_WAIT_MS)
      }
      stopWatchdog()
    })())
  return Object.assign(stop, { started: () => stopping !== null })
}

/** Polls readyUrl until it answers (a status but 502, 503 and 504); the service exiting first, or timeoutMs passing, stops it and is an InputError with its last output. */
async function waitUntilReady(
  service: ReturnType<typeof spawnServiceGroup>,
  stop: () => Promise<void>,
  { named, readyUrl, timeoutMs }: { named: string; readyUrl: string; timeoutMs: number },
): Promise<void> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const exit = service.exit()
    if (exit !== null) {
      await stop() // children it left behind, which may hold its pipes open
      await service.drained()
      const { code, signal, error } = exit
      const how = error ? `failed (${error.message})` : signal ? `was killed by ${signal}` : `exited with code ${code}`
      throw new InputError(`${named} ${how} before it answered at ${readyUrl}; ${service.lastOutput()}`)
    }
    const status = await probe(readyUrl, Math.min(PROBE_TIMEOUT_MS, deadline - Date.now()))
    if (status !== null && !NOT_READY_STATUSES.has(status)) return
    if (Date.now() >= deadline) {
      await stop()
      await service.drained()
      throw new InputError(`${named} did not answer at ${readyUrl} within ${timeoutMs} ms; ${service.lastOutput()}`)
    }
    await Promise.race([service.exited, sleep(Math.min(POLL_MS, deadline - Date.now()))])
  }
}
