import { randomBytes } from 'node:crypto'
import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createConnection, createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** What a case file asks the channel for: the run's evaluation, or (later) whether its reports were written. */
export type ChannelTopic = 'evaluation' | 'reports'

/**
 * How the cases' worker receives the run from the global setup: a local socket (a Unix socket in a
 * private temp folder, a named pipe on Windows) that answers each request (a topic, one line) with the
 * current run's payload for it once that is ready. The global setup does not wait for the evaluation:
 * Vitest starts the cases' worker while the evaluation runs, and the case file waits here (issue 13.2).
 * One channel per Vitest process, so shards and parallel runs never read each other's evaluation.
 */
export interface EvaluationChannel {
  /** What a case file connects to (provided to it). */
  readonly address: string
  /** From now on, requests for `topic` are answered with this payload, sent piece by piece (a watch-mode rerun publishes its own). */
  publish(topic: ChannelTopic, payload: Promise<readonly Uint8Array[]>): void
  close(): Promise<void>
}

/** The channel folders' prefix: the owner's pid follows, so a folder whose owner is gone can be told. */
const FOLDER_PREFIX = 'rag-vitest-eval-'

/** Whether process `pid` exists (EPERM: it does, and is someone else's). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * Removes the channel folders of Vitest processes that are gone: a run killed outright (SIGKILL), or
 * ended by a signal it did not handle, leaves its folder behind, and nothing else would ever remove it.
 */
export function sweepStaleChannelFolders(parent: string = tmpdir()): string[] {
  const swept: string[] = []
  for (const name of readdirSync(parent)) {
    const owner = new RegExp(`^${FOLDER_PREFIX}(\\d+)-`).exec(name)
    if (owner === null || Number(owner[1]) === process.pid || alive(Number(owner[1]))) continue
    rmSync(join(parent, name), { recursive: true, force: true })
    swept.push(name)
  }
  return swept
}

export async function openEvaluationChannel(): Promise<EvaluationChannel> {
  if (process.platform !== 'win32') sweepStaleChannelFolders()
  const folder = process.platform === 'win32' ? null : mkdtempSync(join(tmpdir(), `${FOLDER_PREFIX}${process.pid}-`))
  // Every exit that runs exit handlers (an ended run, process.exit on Ctrl-C or SIGTERM) removes the folder.
  const removeFolder = () => {
    if (folder !== null) rmSync(folder, { recursive: true, force: true })
  }
  process.once('exit', removeFolder)
  const address =
    folder === null
      ? `\\\\.\\pipe\\rag-vitest-eval-${process.pid}-${randomBytes(6).toString('hex')}`
      : join(folder, 'evaluation.sock')
  // Sent piece after piece: a large evaluation is never copied into one buffer.
  const published = new Map<string, Promise<readonly Uint8Array[]>>()
  const server: Server = createServer((socket) => {
    socket.on('error', () => socket.destroy())
    let request = ''
    socket.on('data', (chunk: Buffer) => {
      request += chunk.toString('utf8')
      const end = request.indexOf('\n')
      if (end < 0) return
      socket.removeAllListeners('data')
      const payload = published.get(request.slice(0, end))
      if (!payload) return socket.destroy()
      payload.then(
        (pieces) => {
          for (const piece of pieces) socket.write(piece)
          socket.end()
        },
        () => socket.destroy(),
      )
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(address, () => resolve())
  })
  // A Vitest run ends when its tests do, whatever a case file still holds open.
  server.unref()
  return {
    address,
    publish(topic, payload) {
      payload.catch(() => {})
      published.set(topic, payload)
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => {
          process.removeListener('exit', removeFolder)
          removeFolder()
          resolve()
        })
      }),
  }
}

/** What the channel at `address` answers for `topic`, as text: an error naming the address when it does not. */
export function receiveFromChannel(address: string, topic: ChannelTopic): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    const socket = createConnection(address, () => socket.write(`${topic}\n`))
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    // The first settlement wins: an error is followed by a close.
    socket.on('error', (error) =>
      reject(
        new Error(
          `the evaluation's channel ${address} could not be read (${error.message}): run these cases in the eval project, whose global setup runs the evaluation`,
        ),
      ),
    )
    socket.on('close', () => {
      if (chunks.length === 0)
        reject(new Error(`the evaluation's channel ${address} closed without the run's ${topic}: the run was stopped`))
      else resolve(Buffer.concat(chunks).toString('utf8'))
    })
  })
}
