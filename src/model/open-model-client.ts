import { join } from 'node:path'
import type { EvalConfig } from '../contract/eval-config-schema.ts'
import { InputError } from '../contract/input-error.ts'
import type { ModelRole, RunEstimate } from '../contract/model-usage-schema.ts'
import { parseBaseUrl, probeBaseUrl } from './base-url.ts'
import { createSdkBatchTransport } from './batch-transport.ts'
import { DiskCache, readOnlyCache } from './disk-cache.ts'
import { summariseEstimate, type ObservedCall } from './estimate.ts'
import { estimateTransport } from './estimate-transport.ts'
import { ModelClient, type BatchSettings, type ModelClientOptions, type ModelMode } from './model-client.ts'
import { assertPriced, cacheMinTokens, loadPriceTable } from './prices.ts'
import { PromptCacheSimulator } from './prompt-cache.ts'
import { RecordingReader, RecordingWriter, recordingDir } from './recording.ts'
import { createSdkTransport, DEFAULT_BASE_URL, type MessagesTransport } from './sdk-transport.ts'

export type { ModelMode } from './model-client.ts'

/** Where the model client keeps and finds its files. */
export interface ModelPaths {
  /** evals/model-prices.json */
  pricesFile: string
  /** .cache/model (EVAL_CACHE_DIR) */
  cacheDir: string
  /** fixtures/recordings (EVAL_RECORDINGS_DIR) */
  recordingsDir: string
}

/** The knobs the client reads. */
export type ModelClientKnobs = Pick<
  EvalConfig,
  'cache' | 'concurrency' | 'maxRetries' | 'retryBaseMs' | 'retryMaxMs' | 'timeoutMs' | 'maxUsd' | 'batchPollMs'
>

export interface OpenModelClientOptions {
  mode: ModelMode
  config: ModelClientKnobs
  env: NodeJS.ProcessEnv
  paths: ModelPaths
  /** Every model the client will call: each must have a price before anything is sent. */
  models: readonly string[]
  /** The recording's name under paths.recordingsDir: read in replay, written in record. */
  recording: string
  /** How a missing recording is made, for the replay errors. */
  howToRecord: string
  /** Live and record without ANTHROPIC_API_KEY: what the InputError says. */
  missingKey: (recordingDir: string) => string
  /** EVAL_BATCH=1: the roles whose calls go through the Message Batches API; null: none. */
  batchRoles: readonly ModelRole[] | null
  /** Only the cost estimate will run (`--estimate`): it never calls the API, so no key is needed. */
  estimateOnly?: boolean
  progress?: (line: string) => void
}

/** What the cost estimate is told of the run beside its calls. */
export interface EstimateSpec {
  models: Record<ModelRole, string>
  /** Output tokens of a typical structured reply of the run's (the answer's are TYPICAL_ANSWER's). */
  toolReplyTokens: number
  /** The estimate's basis, from the calls the dry run made. */
  basis: (observed: readonly ObservedCall[]) => string
}

/** The cache's subfolder per server, so a local scripted server's responses never answer a run against the real API. */
export function cacheNamespace(baseURL: string): string {
  try {
    const url = new URL(baseURL)
    return `${url.host}${url.pathname}`.replace(/[^A-Za-z0-9.-]+/g, '_').replace(/_+$/, '')
  } catch {
    return 'unknown-server'
  }
}

/**
 * The one opener of the model client (evaluation and drafter): checks prices, recording or key, then wires cache,
 * retries, cap and batches. A missing key, price or recording is an InputError that says what to do.
 */
export function openModelClient(options: OpenModelClientOptions) {
  const { mode, config, paths } = options
  const prices = loadPriceTable(paths.pricesFile)
  assertPriced(prices, options.models, paths.pricesFile)
  const baseURL = options.env.ANTHROPIC_BASE_URL?.trim() || DEFAULT_BASE_URL
  const dir = recordingDir(paths.recordingsDir, options.recording)
  const reader = mode === 'replay' ? RecordingReader.load(dir, options.howToRecord) : undefined
  const connection = mode === 'replay' ? null : connect(options, dir, baseURL)
  const writer = mode === 'record' ? new RecordingWriter(dir) : undefined
  const cache = mode === 'replay' || config.cache === 'off' ? null : new DiskCache(join(paths.cacheDir, cacheNamespace(baseURL)))
  const shared: Omit<ModelClientOptions, 'mode' | 'transport'> = {
    cache,
    cacheMode: config.cache,
    howToRecord: options.howToRecord,
    concurrency: config.concurrency,
    retry: { maxRetries: config.maxRetries, baseDelayMs: config.retryBaseMs, maxDelayMs: config.retryMaxMs },
    timeoutMs: config.timeoutMs,
    prices,
  }
  const client = new ModelClient({
    ...shared,
    mode,
    transport: connection?.transport ?? null,
    ...(writer ? { recorder: writer } : {}),
    ...(reader ? { recording: reader } : {}),
    secrets: connection?.secrets ?? [],
    maxUsd: config.maxUsd,
    batch: connection?.batch ?? null,
    ...(options.progress ? { progress: options.progress } : {}),
  })
  const checkServer = async () => {
    if (connection?.serverUrl) await probeBaseUrl(connection.serverUrl)
  }
  return {
    client,
    /** ANTHROPIC_BASE_URL, or the API's own. */
    baseURL,
    recordingDir: dir,
    /** replay: the recording the client answers from (its metadata for the caller to check). */
    reader,
    /** record: where the exchanges go (the caller starts and finishes it). */
    writer,
    batching: (connection?.batch ?? null) !== null,
    /** Live and record: a TCP connect to the server, an InputError naming it when nothing answers. */
    checkServer,
    /** The cost before any call: runs `dryRun` on a client that reads the cache, never writes it, and never uses the network. */
    async estimate(dryRun: (client: ModelClient) => Promise<void>, spec: EstimateSpec): Promise<RunEstimate> {
      const observed: ObservedCall[] = []
      const dry = new ModelClient({
        ...shared,
        mode: 'live',
        transport: estimateTransport(new PromptCacheSimulator((model) => cacheMinTokens(prices, model)), spec.toolReplyTokens),
        cache: cache ? readOnlyCache(cache) : null,
        retry: { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0 },
        observe: (call, result) => observed.push({ call, result }),
      })
      await dryRun(dry)
      return summariseEstimate(
        observed,
        prices,
        { models: spec.models, batchRoles: new Set(connection ? (options.batchRoles ?? []) : []), maxUsd: config.maxUsd },
        spec.basis(observed),
      )
    },
  }
}

/** How the client reaches the API in live and record. */
interface Connection {
  transport: MessagesTransport
  batch: BatchSettings | null
  /** Strings the client must never write anywhere (the key). */
  secrets: string[]
  /** The server the SDK will reach: probed by checkServer (none when only the estimate runs). */
  serverUrl: URL | null
}

/** Live and record: the key checked, the transports made. */
function connect(options: OpenModelClientOptions, dir: string, baseURL: string): Connection {
  if (options.estimateOnly) {
    const refuse = () => Promise.reject(new InputError('only the cost estimate runs (--estimate): no call is sent'))
    return { secrets: [], serverUrl: null, transport: refuse, batch: null }
  }
  const apiKey = options.env.ANTHROPIC_API_KEY?.trim()
  if (!apiKey) throw new InputError(options.missingKey(dir))
  return {
    secrets: [apiKey],
    // Not a URL: said now, before the estimate.
    serverUrl: parseBaseUrl(baseURL),
    transport: createSdkTransport({ apiKey, baseURL }),
    batch: options.batchRoles
      ? {
          roles: options.batchRoles,
          transport: createSdkBatchTransport({ apiKey, baseURL }),
          pollMs: options.config.batchPollMs,
        }
      : null,
  }
}
