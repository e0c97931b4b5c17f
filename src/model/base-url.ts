import { connect } from 'node:net'
import { InputError } from '../contract/input-error.ts'
import { describeBaseUrl } from './sdk-transport.ts'

/** How long the reachability probe waits for a TCP connection before it names the server unreachable. */
export const PROBE_TIMEOUT_MS = 5_000

/** ANTHROPIC_BASE_URL as a URL, checked up front: the SDK would only fail at the first call, as a retried "connection failed". */
export function parseBaseUrl(raw: string): URL {
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    throw new InputError(
      `ANTHROPIC_BASE_URL=${raw} is not a URL; expected e.g. ` +
        `https://api.anthropic.com or http://127.0.0.1:8787 (npx rag-eval model-server), or unset it for the Anthropic API`,
    )
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new InputError(`ANTHROPIC_BASE_URL=${describeBaseUrl(raw)}: expected an http:// or https:// URL, not ${url.protocol}`)
  }
  return url
}

/**
 * A TCP connect (no HTTP, no key) so a down server, wrong port or unknown host is named before the cost estimate,
 * not after it as a failed first call. Rejects with an InputError naming ANTHROPIC_BASE_URL and the reason.
 */
export function probeBaseUrl(url: URL, timeoutMs: number = PROBE_TIMEOUT_MS): Promise<void> {
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1')
  const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80))
  const where = `ANTHROPIC_BASE_URL=${describeBaseUrl(url.toString())}`
  const unreachable = (why: string) =>
    new InputError(
      `${where}: cannot connect to ${host}:${port} (${why}); start the server (e.g. npx rag-eval model-server) or fix the URL`,
    )
  return new Promise<void>((resolve, reject) => {
    const socket = connect({ host, port })
    socket.setTimeout(timeoutMs)
    socket.once('connect', () => {
      socket.destroy()
      resolve()
    })
    socket.once('timeout', () => {
      socket.destroy()
      reject(unreachable(`no answer within ${timeoutMs} ms`))
    })
    socket.once('error', (error: NodeJS.ErrnoException) => {
      socket.destroy()
      const why =
        error.code === 'ECONNREFUSED'
          ? 'ECONNREFUSED: nothing accepts connections there'
          : error.code === 'ENOTFOUND'
            ? `ENOTFOUND: no such host`
            : (error.code ?? error.message)
      reject(unreachable(why))
    })
  })
}
