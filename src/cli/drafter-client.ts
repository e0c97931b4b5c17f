import { join } from 'node:path'
import { VERSION as SDK_VERSION } from '@anthropic-ai/sdk/version'
import { InputError } from '../contract/input-error.ts'
import type { EvalConfig } from '../contract/eval-config-schema.ts'
import type { RunEstimate } from '../contract/model-usage-schema.ts'
import { standInTransport } from '../local-server/stand-in-transport.ts'
import { parseBaseUrl, probeBaseUrl } from '../model/base-url.ts'
import { createSdkBatchTransport } from '../model/batch-transport.ts'
import { DiskCache, readOnlyCache } from '../model/disk-cache.ts'
import { summariseEstimate, type ObservedCall } from '../model/estimate.ts'
import { ModelClient } from '../model/model-client.ts'
import { assertPriced, cacheMinTokens, loadPriceTable, type PriceTable } from '../model/prices.ts'
import { PromptCacheSimulator } from '../model/prompt-cache.ts'
import { RecordingReader, RecordingWriter, recordingDir, type RecordingMetadata } from '../model/recording.ts'
import { createSdkTransport, DEFAULT_BASE_URL, describeBaseUrl } from '../model/sdk-transport.ts'
import { cacheNamespace, type ModelTierPaths } from '../run/model-tier.ts'
import { DRAFT_PROMPTS_HASH } from '../authoring/draft/prompts.ts'

/**
 * The drafter's model client: the same client, cache, retries, ledger, cap, batches and record/replay as an
 * evaluation's, for the one role of drafting (accounted as the generator role: the drafter is the model that
 * writes). EVAL_MODE offline means live here: drafting has no offline path.
 */
export interface DrafterClient {
  client: ModelClient
  mode: 'live' | 'record' | 'replay'
  model: string
  prices: PriceTable
  /** Prices a dry run of `run` on a stand-in that answers at once (never the network), reading the cache. */
  estimate(run: (client: ModelClient) => Promise<void>): Promise<RunEstimate>
  /** Live and record: a TCP connect to the server, an InputError naming it when nothing answers. */
  checkServer(): Promise<void>
  /** Record: starts the recording (its metadata names the drafter model and prompts). */
  begin(inputs: { corpusHash: string; planHash: string }): void
  /** Record: completes the recording with the subjects drafted. */
  finish(subjects: readonly string[]): RecordingMetadata | null
  scripted(): boolean
  serverName: string
}

export const HOW_TO_RECORD_DRAFTS = 'record it with EVAL_MODE=record rag-eval golden draft (the same options)'

export function openDrafterClient(
  config: EvalConfig,
  env: NodeJS.ProcessEnv,
  paths: ModelTierPaths,
  options: { batch: boolean; recording: string; progress: (line: string) => void },
): DrafterClient {
  const mode = config.mode === 'offline' ? 'live' : config.mode
  const model = config.drafterModel ?? config.generatorModel
  const prices = loadPriceTable(paths.pricesFile)
  assertPriced(prices, [model], paths.pricesFile)
  const baseURL = env.ANTHROPIC_BASE_URL?.trim() || DEFAULT_BASE_URL
  const dir = recordingDir(paths.recordingsDir, options.recording)
  const cache = mode === 'replay' || config.cache === 'off' ? null : new DiskCache(join(paths.cacheDir, cacheNamespace(baseURL)))
  const common: ClientCommon = {
    cache,
    cacheMode: config.cache,
    concurrency: config.concurrency,
    retry: { maxRetries: config.maxRetries, baseDelayMs: config.retryBaseMs, maxDelayMs: config.retryMaxMs },
    timeoutMs: config.timeoutMs,
    prices,
  }
  const { client, writer, serverUrl } =
    mode === 'replay'
      ? { client: replayClient(dir, model, common), writer: undefined, serverUrl: null }
      : liveClient({ config, env, baseURL, dir, mode, common, batch: options.batch, progress: options.progress })
  let started: { corpusHash: string; planHash: string } | null = null
  const metadata = () => ({
    schemaVersion: 1 as const,
    name: options.recording,
    recordedAt: new Date().toISOString(),
    models: { generator: model, judge: config.judgeModel },
    judgePromptsHash: DRAFT_PROMPTS_HASH,
    goldenSetHash: started?.planHash ?? '',
    corpusHash: started?.corpusHash ?? '',
    sdkVersion: SDK_VERSION,
  })
  return {
    client,
    mode,
    model,
    prices,
    serverName: describeBaseUrl(baseURL),
    scripted: () => client.ledger.scripted,
    async checkServer() {
      if (serverUrl) await probeBaseUrl(serverUrl)
    },
    estimate: (run) => estimateDrafting(run, { common, cache, prices, model, config, batch: options.batch, mode }),
    begin(inputs) {
      started = inputs
      writer?.start({ ...metadata(), scripted: false, server: describeBaseUrl(baseURL), note: 'record run under way' })
    },
    finish(subjects) {
      if (!writer || !started) return null
      const scripted = writer.scripted
      return writer.finish({
        ...metadata(),
        scripted,
        server: describeBaseUrl(baseURL),
        questions: [...subjects],
        note: scripted
          ? 'SCRIPTED: drafts of the local scripted Messages API server, not of a model.'
          : 'Drafting responses of the Anthropic Messages API as recorded.',
      })
    },
  }
}

/** The options every drafter client shares, whichever mode. */
type ClientCommon = Pick<
  ConstructorParameters<typeof ModelClient>[0],
  'cache' | 'cacheMode' | 'concurrency' | 'retry' | 'timeoutMs' | 'prices'
>

/** Replay: answers from the recording only, which must have been drafted by this model. */
function replayClient(dir: string, model: string, common: ClientCommon): ModelClient {
  const reader = RecordingReader.load(dir, HOW_TO_RECORD_DRAFTS)
  if (reader.metadata.models.generator !== model)
    throw new InputError(
      `replay: the recording at ${dir} was drafted with ${reader.metadata.models.generator} (this run: ${model}); ` +
        `set drafterModel back, or ${HOW_TO_RECORD_DRAFTS}`,
    )
  return new ModelClient({ ...common, mode: 'replay', transport: null, recording: reader, howToRecord: HOW_TO_RECORD_DRAFTS })
}

/** Live and record: the SDK's transport (and batches on request) under the key, the cap and, recording, the writer. */
function liveClient(inputs: {
  config: EvalConfig
  env: NodeJS.ProcessEnv
  baseURL: string
  dir: string
  mode: 'live' | 'record'
  common: ClientCommon
  batch: boolean
  progress: (line: string) => void
}): { client: ModelClient; writer: RecordingWriter | undefined; serverUrl: URL } {
  const { config, baseURL, dir, mode } = inputs
  const apiKey = inputs.env.ANTHROPIC_API_KEY?.trim()
  if (!apiKey)
    throw new InputError(
      'golden draft calls the Anthropic API and needs ANTHROPIC_API_KEY in the environment ' +
        `(or EVAL_MODE=replay, to draft from the recording at ${dir})`,
    )
  const serverUrl = parseBaseUrl(baseURL)
  const writer = mode === 'record' ? new RecordingWriter(dir) : undefined
  const client = new ModelClient({
    ...inputs.common,
    mode,
    transport: createSdkTransport({ apiKey, baseURL }),
    ...(writer ? { recorder: writer } : {}),
    howToRecord: HOW_TO_RECORD_DRAFTS,
    secrets: [apiKey],
    maxUsd: config.maxUsd,
    batch: inputs.batch
      ? { roles: ['generator'], transport: createSdkBatchTransport({ apiKey, baseURL }), pollMs: config.batchPollMs }
      : null,
    progress: inputs.progress,
  })
  return { client, writer, serverUrl }
}

/** Prices a dry run of the drafting on a stand-in that answers at once (never the network), reading the cache. */
async function estimateDrafting(
  run: (client: ModelClient) => Promise<void>,
  inputs: {
    common: ClientCommon
    cache: DiskCache | null
    prices: PriceTable
    model: string
    config: EvalConfig
    batch: boolean
    mode: DrafterClient['mode']
  },
): Promise<RunEstimate> {
  const { prices, cache } = inputs
  const observed: ObservedCall[] = []
  const standIn = new ModelClient({
    ...inputs.common,
    mode: 'live',
    cache: cache ? readOnlyCache(cache) : null,
    transport: standInTransport(new PromptCacheSimulator((m) => cacheMinTokens(prices, m))),
    retry: { maxRetries: 0, baseDelayMs: 0, maxDelayMs: 0 },
    observe: (call, result) => observed.push({ call, result }),
  })
  await run(standIn)
  return summariseEstimate(
    observed,
    prices,
    {
      models: { generator: inputs.model, judge: inputs.config.judgeModel },
      batchRoles: new Set(inputs.batch ? (['generator'] as const) : []),
      maxUsd: inputs.mode === 'replay' ? null : inputs.config.maxUsd,
    },
    'dry run: every drafting prompt as it will be sent, replies of the scripted stand-in as the expected output',
  )
}
