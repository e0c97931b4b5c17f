import { DiskCache } from '../disk-cache.ts'
import { ModelClient, type ModelClientOptions } from '../model-client.ts'
import type { ModelCall } from '../model-types.ts'
import { loadPriceTable } from '../prices.ts'
import { createSdkTransport } from '../sdk-transport.ts'
import type { MessagesServer } from '../../model-server/messages-server.ts'

/** A dummy key for tests against the local server: distinctive, so a scan can look for it anywhere. */
export const TEST_API_KEY = 'sk-ant-test-local-0123456789abcdef'

/**
 * A live client on the real SDK against the local server, with tiny backoffs. Its per-request timeout is
 * generous (a loaded machine may take seconds to answer locally); a test of timeouts sets its own against a hang.
 */
export function localClient(
  server: MessagesServer,
  options: Partial<ModelClientOptions> & { cacheDir?: string } = {},
): ModelClient {
  const { cacheDir, ...rest } = options
  return new ModelClient({
    mode: 'live',
    transport: createSdkTransport({ apiKey: TEST_API_KEY, baseURL: server.url }),
    cache: cacheDir ? new DiskCache(cacheDir) : null,
    cacheMode: cacheDir ? 'on' : 'off',
    concurrency: 4,
    retry: { maxRetries: 3, baseDelayMs: 5, maxDelayMs: 2_000 },
    timeoutMs: 60_000,
    prices: loadPriceTable('evals/model-prices.json'),
    secrets: [TEST_API_KEY],
    ...rest,
  })
}

/** A small free-text call. */
export function textCall(subject = 'q-001', text = 'Say hello.', purpose = 'test'): ModelCall {
  return {
    role: 'judge',
    subject,
    purpose,
    templateHash: 'test-template',
    schemaHash: null,
    inputs: { text },
    sample: 0,
    request: { model: 'claude-haiku-4-5-20251001', max_tokens: 64, messages: [{ role: 'user', content: text }] },
  }
}
