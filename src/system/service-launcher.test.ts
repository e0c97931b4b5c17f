import { spawn } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { createServer as createNetServer, type AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it } from 'vitest'
import { InputError } from '../contract/input-error.ts'
import { isProcessAlive } from './process-group.ts'
import { startService, withoutVitestVariables, type RunningService, type ServiceOptions } from './service-launcher.ts'

const testing = fileURLToPath(new URL('./testing/', import.meta.url))
const grandchildService = 'python3 grandchild-service.py'

/** A port nobody listens on (the OS picks it, we release it). */
async function freePort(): Promise<number> {
  const server = createNetServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

const started: RunningService[] = []
const servers: Server[] = []
const pidsToReap: number[] = []
afterEach(async () => {
  await Promise.all(started.splice(0).map((service) => service.stop()))
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))))
  for (const pid of pidsToReap.splice(0)) if (isProcessAlive(pid)) process.kill(pid, 'SIGKILL')
})

async function start(options: Partial<ServiceOptions> & { port: number }): Promise<RunningService> {
  const { port, ...rest } = options
  const service = await startService({
    command: grandchildService,
    url: `http://127.0.0.1:${port}/rag`,
    cwd: testing,
    env: { PORT: String(port) },
    ...rest,
  })
  started.push(service)
  return service
}

/**
 * Resolves once `holds` is true of what `poll` returns, polling every 50 ms. No time limit of its own:
 * these tests wait for events (a line printed, a process gone), and only a hang meets the test timeout.
 */
async function until<T>(poll: () => T, holds: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = poll()
    if (holds(value)) return value
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** The service's and its grandchild's pids, once the test service has printed them. */
async function pidsFrom(lines: string[]): Promise<{ pid: number; child: number }> {
  const line = await until(
    () => lines.find((candidate) => /pid \d+ child \d+/.test(candidate)),
    (found) => found !== undefined,
  )
  const [, pid, child] = /pid (\d+) child (\d+)/.exec(line!)!
  pidsToReap.push(Number(pid), Number(child))
  return { pid: Number(pid), child: Number(child) }
}

/** Resolves once none of `pids` runs. */
const gone = (pids: number[]) =>
  until(
    () => pids.filter(isProcessAlive),
    (alive) => alive.length === 0,
  )

/** Processes whose environment carries RAG_EVAL_TEST_MARKER=`marker` (Linux /proc; a zombie has no environment). */
function processesMarked(marker: string): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(`RAG_EVAL_TEST_MARKER=${marker}`)
      } catch {
        return false
      }
    })
    .map(Number)
}

describe('withoutVitestVariables: a started service gets the same environment under Vitest and rag-eval eval', () => {
  it("drops what Vitest sets in its process, NODE_ENV only when it is Vitest's 'test'", () => {
    const vitest = { VITEST: 'true', TEST: 'true', MODE: 'test', BASE_URL: '/', PROD: '', DEV: '1', PATH: '/bin', SLOW: '3' }
    expect(withoutVitestVariables({ ...vitest, NODE_ENV: 'test' })).toEqual({ PATH: '/bin', SLOW: '3' })
    expect(withoutVitestVariables({ ...vitest, NODE_ENV: 'production' })).toEqual({
      PATH: '/bin',
      SLOW: '3',
      NODE_ENV: 'production',
    })
  })
  it('leaves an environment outside Vitest as it is (a TEST of your own stays)', () => {
    expect(withoutVitestVariables({ TEST: 'true', NODE_ENV: 'test', PATH: '/bin' })).toEqual({
      TEST: 'true',
      NODE_ENV: 'test',
      PATH: '/bin',
    })
  })
})

describe('startService', () => {
  it('starts the service, waits until it answers, and stop() ends it and the child it started', async () => {
    const port = await freePort()
    const lines: string[] = []
    const service = await start({ port, log: (line) => lines.push(line) })
    const response = await fetch(`http://127.0.0.1:${port}/`)
    expect([response.status, await response.text()]).toEqual([200, 'ok'])
    const { pid, child } = await pidsFrom(lines)
    expect(lines[0]).toBe(`[service] pid ${pid} child ${child}`)
    expect([isProcessAlive(pid), isProcessAlive(child)]).toEqual([true, true])
    await service.stop()
    expect([isProcessAlive(pid), isProcessAlive(child)]).toEqual([false, false])
    await service.stop() // idempotent
  })

  it('sends SIGKILL after the grace period to a group that ignores SIGTERM', async () => {
    const port = await freePort()
    const lines: string[] = []
    const service = await start({
      port,
      command: `trap '' TERM; ${grandchildService}`,
      graceMs: 300,
      log: (line) => lines.push(line),
    })
    const { pid, child } = await pidsFrom(lines)
    const stopping = Date.now()
    await service.stop()
    expect(Date.now() - stopping).toBeGreaterThanOrEqual(300)
    expect([isProcessAlive(pid), isProcessAlive(child)]).toEqual([false, false])
  })

  it('is ready at the first answer that is not 502, 503 or 504', async () => {
    const port = await freePort()
    // The service answers its first three GETs with 503: had startService stopped at one, this GET would get 503 too.
    await start({ port, env: { PORT: String(port), WARMUP_REQUESTS: '3' } })
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(200)
  })

  it('names the command, the url and the time when the service never answers, and ends it', async () => {
    const port = await freePort()
    // The service prints nothing, so the message is the same whether or not the shell ran before the deadline:
    // the verdict does not depend on how fast this machine starts a process. (The last lines it printed are
    // named as in the tests below, which end by an exit, not by the clock.)
    const command = 'exec sleep 30'
    const marker = `timeout-${process.pid}-${port}`
    const error = await start({ port, command, timeoutMs: 300, env: { PORT: String(port), RAG_EVAL_TEST_MARKER: marker } }).catch(
      (failure: unknown) => failure,
    )
    expect(error).toBeInstanceOf(InputError)
    expect((error as Error).message).toBe(
      `service "${command}" did not answer at http://127.0.0.1:${port}/ within 300 ms; last output: (none)`,
    )
    // startService rejects once the group is gone: nothing started with the marker runs any more.
    expect(processesMarked(marker)).toEqual([])
  })

  it('names the exit code and the last output when the service exits before it answers', async () => {
    const port = await freePort()
    const command = 'echo starting >&2; echo PORT is not a number >&2; exit 3'
    await expect(start({ port, command })).rejects.toThrow(
      new InputError(
        `service "${command}" exited with code 3 before it answered at http://127.0.0.1:${port}/; last output:\n  starting\n  PORT is not a number`,
      ),
    )
  })

  it('says "(none)" when the service printed nothing', async () => {
    const port = await freePort()
    await expect(start({ port, command: 'exit 1' })).rejects.toThrow(
      new InputError(`service "exit 1" exited with code 1 before it answered at http://127.0.0.1:${port}/; last output: (none)`),
    )
  })

  it('refuses to start when something already answers at the ready url, unless reuseExisting', async () => {
    const port = await freePort()
    const server = createServer((_request, response) => response.writeHead(404).end())
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
    await expect(start({ port })).rejects.toThrow(
      new InputError(
        `service "${grandchildService}" was not started: something already answers at http://127.0.0.1:${port}/ (the port is in use, or the service is already running); stop it, or set reuseExisting: true to evaluate the running service`,
      ),
    )
    const reused = await start({ port, reuseExisting: true })
    expect(reused.pid).toBeNull()
    await reused.stop()
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404)
  })

  it('polls the readyUrl given instead of the origin', async () => {
    const port = await freePort()
    // The readyUrl is this test's server: it says 503 (not ready) until released. The service answers at its
    // origin long before that; startService waits all the same, and is ready at the readyUrl's first 200.
    // Until the service has started it answers nothing (startService refuses to start where something answers).
    const lines: string[] = []
    const polled: (string | undefined)[] = []
    let ready = false
    let nextPoll: () => void = () => undefined
    const health = createServer((request, response) => {
      if (!lines.some((line) => /pid \d+ child \d+/.test(line))) return request.socket.destroy()
      polled.push(request.url)
      response.writeHead(ready ? 200 : 503).end()
      nextPoll()
    })
    servers.push(health)
    await new Promise<void>((resolve) => health.listen(0, '127.0.0.1', resolve))
    const readyUrl = `http://127.0.0.1:${(health.address() as AddressInfo).port}/health`
    let resolved = false
    const starting = start({ port, readyUrl, log: (line) => lines.push(line) }).then((service) => {
      resolved = true
      return service
    })
    // The service runs and answers at its origin: polling the origin would have made it ready by now.
    await pidsFrom(lines)
    while (
      !(await fetch(`http://127.0.0.1:${port}/`).then(
        (response) => response.ok,
        () => false,
      ))
    )
      await new Promise((resolve) => setTimeout(resolve, 50))
    // One more poll of the readyUrl after that, answered 503: startService is still waiting. (Had it polled
    // the origin, it would be ready instead, and never poll the readyUrl.)
    await Promise.race([new Promise<void>((resolve) => (nextPoll = resolve)), starting])
    expect(resolved).toBe(false)
    ready = true
    const service = await starting
    expect(service.pid).not.toBeNull()
    expect(new Set(polled)).toEqual(new Set(['/health']))
  })

  it('names a cwd that is not a folder', async () => {
    const port = await freePort()
    await expect(start({ port, cwd: `${testing}missing` })).rejects.toThrow(
      new InputError(`service "${grandchildService}": its folder (cwd) ${testing}missing is not a folder`),
    )
  })
})

describe('startService: the service dies with the process that started it', () => {
  /** A Node process that starts the test service and idles; resolves once it printed "ready", with the pids. */
  async function parentWithService(port: number) {
    const parent = spawn(
      process.execPath,
      ['--import', 'tsx', 'start-service-and-wait.ts', grandchildService, `http://127.0.0.1:${port}/rag`],
      {
        cwd: testing,
        env: { ...process.env, PORT: String(port) },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    pidsToReap.push(parent.pid!)
    const lines: string[] = []
    let buffered = ''
    let printedReady: (ready: boolean) => void = () => undefined
    const ready = new Promise<boolean>((resolve) => (printedReady = resolve))
    parent.stdout.on('data', (data: Buffer) => {
      buffered += data.toString()
      const parts = buffered.split('\n')
      buffered = parts.pop()!
      lines.push(...parts)
      if (parts.includes('ready')) printedReady(true)
    })
    const exited = new Promise<NodeJS.Signals | null>((resolve) => parent.on('exit', (_code, signal) => resolve(signal)))
    // Ready, or the parent ended first (it failed to start the service: its error went to stderr).
    void exited.then(() => printedReady(false))
    expect(await ready, 'start-service-and-wait.ts printed "ready"').toBe(true)
    return { parent, exited, ...(await pidsFrom(lines)) }
  }

  // The watchdog checks every 250 ms, and the SIGTERM handler runs at once; how soon the processes are gone is
  // the machine's business, so these tests wait for it (a service left running meets the test timeout).
  it('SIGKILL of the parent: the watchdog ends the service and its child', async () => {
    const { parent, exited, pid, child } = await parentWithService(await freePort())
    expect([isProcessAlive(pid), isProcessAlive(child)]).toEqual([true, true])
    parent.kill('SIGKILL')
    expect(await exited).toBe('SIGKILL')
    await gone([pid, child])
  })

  it('SIGTERM of the parent: its handler ends the service, and the parent still terminates by SIGTERM', async () => {
    const { parent, exited, pid, child } = await parentWithService(await freePort())
    parent.kill('SIGTERM')
    expect(await exited).toBe('SIGTERM')
    await gone([pid, child])
  })
})
