import { spawn } from 'node:child_process'
import { createServer, type Server } from 'node:http'
import { createServer as createNetServer, type AddressInfo } from 'node:net'
import { fileURLToPath } from 'node:url'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { InputError } from '../contract/input-error.ts'
import { isProcessAlive } from './process-group.ts'
import { startService, type RunningService, type ServiceOptions } from './service-launcher.ts'

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

/** The service's and its grandchild's pids, from the line the test service prints. */
async function pidsFrom(lines: string[]): Promise<{ pid: number; child: number }> {
  const line = await vi.waitFor(() => {
    const found = lines.find((candidate) => /pid \d+ child \d+/.test(candidate))
    if (!found) throw new Error('the service has not printed its pids yet')
    return found
  })
  const [, pid, child] = /pid (\d+) child (\d+)/.exec(line)!
  pidsToReap.push(Number(pid), Number(child))
  return { pid: Number(pid), child: Number(child) }
}

const gone = (pids: number[], withinMs: number) =>
  vi.waitFor(() => expect(pids.filter(isProcessAlive)).toEqual([]), { timeout: withinMs, interval: 50 })

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

  it('names the command, the url, the time and the last output when the service never answers, and ends it', async () => {
    const port = await freePort()
    const command = 'echo shell $$ waiting; sleep 30'
    const error = await start({ port, command, timeoutMs: 700 }).catch((failure: unknown) => failure)
    expect(error).toBeInstanceOf(InputError)
    const message = (error as Error).message
    const shell = Number(/shell (\d+) waiting/.exec(message)?.[1])
    pidsToReap.push(shell)
    expect(message).toBe(
      `service "${command}" did not answer at http://127.0.0.1:${port}/ within 700 ms; last output:\n  shell ${shell} waiting`,
    )
    expect(isProcessAlive(shell)).toBe(false)
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
    const lines: string[] = []
    await expect(
      start({ port, readyUrl: `http://127.0.0.1:${port + 1}/health`, timeoutMs: 600, log: (line) => lines.push(line) }),
    ).rejects.toThrow(`did not answer at http://127.0.0.1:${port + 1}/health within 600 ms`)
    const { pid, child } = await pidsFrom(lines)
    expect([isProcessAlive(pid), isProcessAlive(child)]).toEqual([false, false])
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
    parent.stdout.on('data', (data: Buffer) => {
      buffered += data.toString()
      const parts = buffered.split('\n')
      buffered = parts.pop()!
      lines.push(...parts)
    })
    const exited = new Promise<NodeJS.Signals | null>((resolve) => parent.on('exit', (_code, signal) => resolve(signal)))
    await vi.waitFor(() => expect(lines).toContain('ready'), { timeout: 15_000, interval: 50 })
    return { parent, exited, ...(await pidsFrom(lines)) }
  }

  it('SIGKILL of the parent: the watchdog ends the service and its child within 2 s', { timeout: 30_000 }, async () => {
    const { parent, exited, pid, child } = await parentWithService(await freePort())
    expect([isProcessAlive(pid), isProcessAlive(child)]).toEqual([true, true])
    parent.kill('SIGKILL')
    expect(await exited).toBe('SIGKILL')
    await gone([pid, child], 2000)
  })

  it(
    'SIGTERM of the parent: its handler ends the service, and the parent still terminates by SIGTERM',
    { timeout: 30_000 },
    async () => {
      const { parent, exited, pid, child } = await parentWithService(await freePort())
      parent.kill('SIGTERM')
      expect(await exited).toBe('SIGTERM')
      await gone([pid, child], 2000)
    },
  )
})
