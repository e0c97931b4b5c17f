import { createReadStream } from 'node:fs'
import { createInterface } from 'node:readline'
import { FILE_ENCODING } from './byte-string'
import { TrecError } from './errors'

/** Receives one line (without its line ending) and its 1-based line number. May throw to stop reading. */
export type LineHandler = (line: string, lineNumber: number) => void

/**
 * Streams a file's lines (latin1 byte strings) via node:readline; resolves with the line count, rejects with
 * `onLine`'s first error or a TrecError when unreadable. `label` names the file's role ("qrels", "run").
 */
export function forEachLine(path: string, label: string, onLine: LineHandler): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    const input = createReadStream(path, { encoding: FILE_ENCODING, highWaterMark: 1 << 20 })
    const lines = createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })
    let lineNumber = 0
    let settled = false

    const fail = (error: Error): void => {
      if (settled) return
      settled = true
      lines.close()
      input.destroy()
      reject(error)
    }
    const failRead = (error: Error): void => {
      fail(new TrecError(`cannot read ${label} file ${path}: ${error.message}`))
    }

    input.on('error', failRead)
    lines.on('error', failRead)
    lines.on('line', (line: string) => {
      if (settled) return
      lineNumber++
      try {
        onLine(line, lineNumber)
      } catch (error) {
        fail(error instanceof Error ? error : new Error(String(error)))
      }
    })
    lines.on('close', () => {
      if (settled) return
      settled = true
      resolve(lineNumber)
    })
  })
}

/** Feeds an in-memory text to a line handler with the same line numbering as `forEachLine`. */
export function forEachTextLine(text: string, onLine: LineHandler): number {
  const lines = text.split(/\r\n|\n|\r/)
  if (lines.length > 0 && lines[lines.length - 1] === '') lines.pop()
  lines.forEach((line, index) => onLine(line, index + 1))
  return lines.length
}
