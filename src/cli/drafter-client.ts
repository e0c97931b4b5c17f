import { VERSION as SDK_VERSION } from '@anthropic-ai/sdk/version'
import { InputError } from '../contract/input-error.ts'
import type { EvalConfig } from '../contract/eval-config-schema.ts'
import type { RunEstimate } from '../contract/model-usage-schema.ts'
import type { ModelClient } from '../model/model-client.ts'
import { openModelClient, type ModelPaths } from '../model/open-model-client.ts'
import { describeBaseUrl } from '../model/sdk-transport.ts'
import { DRAFT_PROMPTS_HASH } from '../authoring/draft/prompts.ts'

/** Output tokens the cost estimate assumes for a draft: the question, its answer and the passages' quotes as evidence. */
export const TYPICAL_DRAFT_TOKENS = 300

export const HOW_TO_RECORD_DRAFTS = 'record it with EVAL_MODE=record rag-eval golden draft (the same options)'

/**
 * The drafter's model client, an evaluation's client for one role (accounted as the generator: the drafter writes).
 * EVAL_MODE offline means live here: drafting has no offline path.
 */
export function openDrafterClient(
  config: EvalConfig,
  env: NodeJS.ProcessEnv,
  paths: ModelPaths,
  options: { batch: boolean; recording: string; progress: (line: string) => void; estimateOnly?: boolean },
) {
  const mode: 'live' | 'record' | 'replay' = config.mode === 'offline' ? 'live' : config.mode
  const model = config.drafterModel ?? config.generatorModel
  const opened = openModelClient({
    mode,
    config,
    env,
    paths,
    models: [model],
    recording: options.recording,
    howToRecord: HOW_TO_RECORD_DRAFTS,
    missingKey: (dir) =>
      'golden draft calls the Anthropic API and needs ANTHROPIC_API_KEY in the environment ' +
      `(or EVAL_MODE=replay, to draft from the recording at ${dir})`,
    batchRoles: options.batch ? ['generator'] : null,
    progress: options.progress,
    estimateOnly: options.estimateOnly ?? false,
  })
  const { client, reader, writer, baseURL } = opened
  // Replay: answers from the recording only, which must have been drafted by this model.
  if (reader && reader.metadata.models.generator !== model)
    throw new InputError(
      `replay: the recording at ${opened.recordingDir} was drafted with ${reader.metadata.models.generator} (this run: ${model}); ` +
        `set drafterModel back, or ${HOW_TO_RECORD_DRAFTS}`,
    )
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
    serverName: describeBaseUrl(baseURL),
    scripted: () => client.ledger.scripted,
    checkServer: () => opened.checkServer(),
    /** Prices a dry run of `run` on a client that answers at once with replies of typical length, reading the cache. */
    estimate: (run: (client: ModelClient) => Promise<void>): Promise<RunEstimate> =>
      opened.estimate(run, {
        models: { generator: model, judge: config.judgeModel },
        toolReplyTokens: TYPICAL_DRAFT_TOKENS,
        basis: () =>
          `dry run: every drafting prompt as it will be sent, each reply priced at a typical ${TYPICAL_DRAFT_TOKENS} tokens`,
      }),
    /** Record: starts the recording (its metadata names the drafter model and prompts). */
    begin(inputs: { corpusHash: string; planHash: string }) {
      started = inputs
      writer?.start({ ...metadata(), scripted: false, server: describeBaseUrl(baseURL), note: 'record run under way' })
    },
    /** Record: completes the recording with the subjects drafted. */
    finish(subjects: readonly string[]): void {
      if (!writer || !started) return
      const scripted = writer.scripted
      writer.finish({
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
