import { randomBytes } from 'node:crypto'
import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { redactSecretBytes, redactSecretParts, redactSecrets } from '../common/secrets.ts'

/**
 * Writes a file atomically: a temp file beside it, then a rename, so a reader never sees half a report.
 * The temp name is the writer's own (pid and random bytes): writers on other machines sharing the folder
 * (shards on one volume, containers with equal pids) never write into each other's temp file.
 * Byte arrays from an iterable are written as it yields them, never joined into one copy.
 * Every file of the package is written here, so here the run's secrets are kept out of files (common/secrets.ts).
 */
export function writeFileAtomic(path: string, content: string | Uint8Array | Iterable<Uint8Array>): void {
  mkdirSync(dirname(path), { recursive: true })
  const temp = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`
  try {
    if (typeof content === 'string') writeFileSync(temp, redactSecrets(content))
    else if (content instanceof Uint8Array) writeFileSync(temp, redactSecretBytes(content))
    else writeParts(temp, redactSecretParts(content))
    renameSync(temp, path)
  } catch (error) {
    rmSync(temp, { force: true })
    throw error
  }
}

function writeParts(path: string, parts: Iterable<Uint8Array>): void {
  const fd = openSync(path, 'w')
  try {
    for (const part of parts) for (let written = 0; written < part.length;) written += writeSync(fd, part, written)
  } finally {
    closeSync(fd)
  }
}
