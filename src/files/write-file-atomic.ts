import { randomBytes } from 'node:crypto'
import { closeSync, mkdirSync, openSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs'
import { dirname } from 'node:path'
import { redactSecretBytes, redactSecretParts, redactSecrets } from '../common/secrets.ts'

/**
 * Every file of the package is written here: temp file then rename, so no reader sees half a file; the temp name is
 * the writer's own (pid, random bytes) for shared folders; iterables are never joined; secrets are redacted here.
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
