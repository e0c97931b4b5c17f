import { mkdtempSync, rmSync } from 'node:fs'
import { createConnection, createServer, type Server } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { randomBytes } from 'node:crypto'

/**
 * How the cases' worker receives the run's evaluation from the global setup: a local socket (a Unix
 * socket in a private temp folder, a named pipe on Windows) that answers every connection with the
 * current run's payload once it is ready. The global setup does not wait for the evaluation: Vitest
 * starts the cases' worker while the evaluation runs, and the case file waits here (issue 13.2). One
 * channel per Vitest process, so shards and parallel runs never read each other's evaluation.
 */
export interface EvaluationChannel {
  /** What a case file connects to (provided to it). */
  readonly address: string
  /** From now on, connections are answered with this payload (a watch-mode rerun publishes its own); resolves once it has been sent whole to a case file. */
  publish(payload: Promise<Uint8Array>): Promise<void>
  close(): Promise<void>
}

export async function openEvaluationChannel(): Promise<EvaluationChannel> {
  const folder = process.platform === 'win32' ? null : mkdtempSync(join(tmpdir(), 'rag-vitest-eval-'))
  const address = folder === null ? `\\\\.\\pipe\\rag-vitest-eval-${process.pid}-${randomBytes(6).toString('hex')}` : join(folder, 'evaluation.sock')
  let payload: Promise<Uint8Array> = Promise.reject(new Error('no evaluation was published'))
  payload.catch(() => {})
  let sent = () => {}
  const server: Server = createServer((socket) => {
    socket.on('error', () => socket.destroy())
    const notify = sent
    payload.then(
      (bytes) => socket.end(bytes, notify),
      () => socket.destroy(),
    )
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(address, () => resolve())
  })
  // A Vitest run ends when its tests do, whatever a case file still holds open.
  server.unref()
  return {
    address,
    publish(next) {
      payload = next
      payload.catch(() => {})
      return new Promise((resolve) => (sent = resolve))
    },
    close: () =>
      new Promise((resolve) => {
        server.close(() => {
          if (folder !== null) rmSync(folder, { recursive: true, force: true })
          resolve()
        })
      }),
  }
}

/** The payload the channel at `address` answers with, as text: an error naming the address when there is none. */
export function receiveFromChannel(address: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    const socket = createConnection(address)
    socket.on('data', (chunk: Buffer) => chunks.push(chunk))
    // The first settlement wins: an error is followed by a close.
    socket.on('error', (error) => reject(new Error(`the evaluation's channel ${address} could not be read (${error.message}): run these cases in the eval project, whose global setup runs the evaluation`)))
    socket.on('close', () => {
      if (chunks.length === 0) reject(new Error(`the evaluation's channel ${address} closed without an evaluation: the run was stopped`))
      else resolve(Buffer.concat(chunks).toString('utf8'))
    })
  })
}
