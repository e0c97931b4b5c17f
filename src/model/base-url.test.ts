import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { loadProjectConfig } from '../config/load-project-config.ts'
import { InputError } from '../contract/input-error.ts'
import { evaluate } from '../run/evaluate.ts'
import { parseBaseUrl, probeBaseUrl } from './base-url.ts'
import { TEST_API_KEY } from './testing/test-client.ts'
import { useScriptedServer } from './testing/use-scripted-server.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'

// A bad ANTHROPIC_BASE_URL is named before any cost estimate is printed.

const local = useScriptedServer()
const temp = useTempDirs()
const repository = await loadProjectConfig()

/** A port nothing listens on: one the system just handed out and took back. */
async function closedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise<void>((resolve) => server.close(() => resolve()))
  return port
}

/**
 * A live run with this base URL of the repository's project on the tiny corpus and its three questions (what is
 * checked comes before any question is sent); the lines it printed, and how it ended.
 */
async function liveRun(baseUrl: string): Promise<{ lines: string[]; error: unknown }> {
  const lines: string[] = []
  const project = {
    ...repository,
    corpus: { ...repository.corpus!, dir: 'fixtures/corpora/tiny' },
    goldenSet: 'fixtures/golden/valid.json',
    cacheDir: temp.make('base-url-cache-'),
    recordingsDir: temp.make('base-url-recordings-'),
  }
  const env = { EVAL_MODE: 'live', ANTHROPIC_API_KEY: TEST_API_KEY, ANTHROPIC_BASE_URL: baseUrl }
  const error = await evaluate(project, { tier: 'full', env, baselineRoot: null, log: (line) => lines.push(line) }).then(
    () => null,
    (e: unknown) => e,
  )
  return { lines, error }
}

describe('parseBaseUrl', () => {
  it('names a value that is not a URL, and one that is not http(s)', () => {
    expect(() => parseBaseUrl('not a url')).toThrow(
      new InputError(
        'ANTHROPIC_BASE_URL=not a url is not a URL; expected e.g. https://api.anthropic.com or http://127.0.0.1:8787 (npx rag-eval model-server), or unset it for the Anthropic API',
      ),
    )
    // Without a scheme, "localhost:8787" parses as the scheme "localhost:".
    expect(() => parseBaseUrl('localhost:8787')).toThrow(
      'ANTHROPIC_BASE_URL=localhost:8787: expected an http:// or https:// URL, not localhost:',
    )
    expect(parseBaseUrl('http://127.0.0.1:8787').port).toBe('8787')
  })
})

describe('probeBaseUrl', () => {
  it('resolves when the server accepts a connection', async () => {
    await expect(probeBaseUrl(new URL(local.server.url))).resolves.toBeUndefined()
    // A TCP connect only: the server saw no request.
    expect(local.server.requests).toHaveLength(0)
  })
  it('names the URL and the refusal when nothing listens', async () => {
    const port = await closedPort()
    await expect(probeBaseUrl(new URL(`http://127.0.0.1:${port}`))).rejects.toThrow(
      `ANTHROPIC_BASE_URL=http://127.0.0.1:${port}: cannot connect to 127.0.0.1:${port} (ECONNREFUSED: nothing accepts connections there); start the server (e.g. npx rag-eval model-server) or fix the URL`,
    )
  })
})

describe('a live run with a bad ANTHROPIC_BASE_URL stops before the cost estimate', () => {
  it('not a URL', async () => {
    const { lines, error } = await liveRun('htp//127.0.0.1:8787')
    expect(error).toBeInstanceOf(InputError)
    expect((error as Error).message).toMatch(/^ANTHROPIC_BASE_URL=htp\/\/127\.0\.0\.1:8787 is not a URL/)
    expect(lines.filter((line) => line.startsWith('cost estimate'))).toEqual([])
  })
  it('refusing connections', async () => {
    const port = await closedPort()
    const { lines, error } = await liveRun(`http://127.0.0.1:${port}`)
    expect(error).toBeInstanceOf(InputError)
    expect((error as Error).message).toBe(
      `ANTHROPIC_BASE_URL=http://127.0.0.1:${port}: cannot connect to 127.0.0.1:${port} (ECONNREFUSED: nothing accepts connections there); start the server (e.g. npx rag-eval model-server) or fix the URL`,
    )
    expect(lines.filter((line) => line.startsWith('cost estimate'))).toEqual([])
  })
  it('a reachable server gets its estimate as before', async () => {
    const { lines, error } = await liveRun(local.server.url)
    expect(error).toBeNull()
    expect(lines.filter((line) => line.startsWith('cost estimate'))).toHaveLength(1)
  })
})
