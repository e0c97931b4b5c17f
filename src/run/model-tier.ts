import { VERSION as SDK_VERSION } from '@anthropic-ai/sdk/version'
import type { EvalConfig } from '../contract/eval-config-schema.ts'
import { createModelJudge } from '../judge/model-judge.ts'
import { JUDGE_PROMPTS_HASH } from '../judge/prompts/index.ts'
import type { Judge } from '../judge/judge.ts'
import { InputError } from '../contract/input-error.ts'
import { displayPath, type ProjectConfig } from '../config/project-config.ts'
import type { Answerer, Reranker } from '../builtin/builtin-system.ts'
import { createClaudeAnswerer } from '../builtin/claude-answerer.ts'
import { createClaudeReranker } from '../builtin/claude-reranker.ts'
import type { RunEstimate } from '../contract/model-usage-schema.ts'
import { TYPICAL_ANSWER_TOKENS } from '../model/estimate-transport.ts'
import type { ObservedCall } from '../model/estimate.ts'
import type { ModelClient } from '../model/model-client.ts'
import { openModelClient, type ModelMode, type ModelPaths } from '../model/open-model-client.ts'
import { PACKAGE_PRICES_FILE } from '../model/prices.ts'
import type { RecordingReader, RecordingMetadata, RecordingWriter } from '../model/recording.ts'
import { describeBaseUrl } from '../model/sdk-transport.ts'

/** Where the model tier's files are: the project's paths, and the package's price table unless the project names one. */
export function modelTierPaths(project: ProjectConfig): ModelPaths {
  // Relative to the current folder where they are inside it: they appear in messages (and stay valid paths).
  const here = { root: process.cwd() }
  return {
    pricesFile: project.prices ?? PACKAGE_PRICES_FILE,
    cacheDir: displayPath(here, project.cacheDir),
    recordingsDir: displayPath(here, project.recordingsDir),
  }
}

export const HOW_TO_RECORD =
  're-record with `rag-eval record-scripted` (local scripted server), or with EVAL_MODE=record and ANTHROPIC_API_KEY (the real API)'

function hostOf(baseURL: string): string {
  try {
    return new URL(baseURL).hostname
  } catch {
    return 'an unknown host'
  }
}

/** The self-preference warning, when the generator and the judge are one model. */
export function selfPreferenceWarning(config: Pick<EvalConfig, 'generatorModel' | 'judgeModel'>): string | null {
  return config.generatorModel === config.judgeModel
    ? `the generator and the judge are the same model (${config.judgeModel}): ` +
        `a model tends to prefer its own answers (self-preference bias), so its scores run high; ` +
        `set EVAL_JUDGE_MODEL to another model`
    : null
}

/** The generator and the judge on one client. */
export interface ModelAgents {
  readonly answerer: Answerer
  /** The built-in system's Claude reranker (retrieval.reranker 'claude'). */
  readonly reranker: Reranker
  readonly judge: Judge
}

/** Output tokens the estimate assumes for a judge's reply: a score or a few verdicts, each with a one-line reason. */
export const TYPICAL_VERDICT_TOKENS = 150

/** What the estimate rests on: prompts as they will be sent, judges on cached or typical answers, replies at typical lengths. */
function estimateBasis(observed: readonly ObservedCall[]): string {
  const generated = observed.filter((o) => o.call.role === 'generator')
  const answered = generated.filter((o) => o.result.source !== 'api').length
  const unknown = generated.length - answered
  return (
    `dry run: the generator's ${generated.length} prompts as they will be sent, ${answered} of them answered by the cache; ` +
    (unknown === 0
      ? `the judge's prompts as they will be sent, built on the cached answers`
      : `the judge's built on ${answered > 0 ? `the ${answered} cached answers and on ` : ''}a typical answer ` +
        `(${TYPICAL_ANSWER_TOKENS} tokens) for the ${unknown} not yet known; ` +
        `replies priced at ${TYPICAL_ANSWER_TOKENS} tokens an answer, ${TYPICAL_VERDICT_TOKENS} a judge's verdicts`)
  )
}

/** What the evaluation needs of the model tier: the answerer, the judge, usage, and the recording's lifecycle. */
export type ModelTier = ReturnType<typeof openModelTier>

export interface RunInputs {
  questionIds: readonly string[]
  goldenSetHash: string
  corpusHash: string
}

/** Opens the model tier (live, record, replay): the one client the generator and the judge share; see openModelClient. */
export function openModelTier(
  config: EvalConfig & { mode: ModelMode },
  env: NodeJS.ProcessEnv,
  paths: ModelPaths,
  now: () => Date,
  options: { progress?: (line: string) => void } = {},
) {
  const mode = config.mode
  const warnings: string[] = []
  const perQuestion: string[] = []
  const warning = selfPreferenceWarning(config)
  if (warning) warnings.push(warning)

  const opened = openModelClient({
    mode,
    config,
    env,
    paths,
    models: [config.generatorModel, config.judgeModel],
    recording: config.recording,
    howToRecord: HOW_TO_RECORD,
    missingKey: (dir) =>
      `EVAL_MODE=${mode} calls the Anthropic API and needs ANTHROPIC_API_KEY in the environment; ` +
      `without a key use EVAL_MODE=offline (the default) or EVAL_MODE=replay (answers from ${dir})`,
    batchRoles: config.batch ? ['judge'] : null,
    ...options,
  })
  const { client, reader, writer, baseURL, recordingDir: dir } = opened
  if (reader) checkRecording(config, reader, dir, warnings)
  const agents = agentsOf(config)

  let run: RunInputs | null = null
  const metadataOf = (inputs: RunInputs) => recordingMetadata(config, now, inputs)
  return {
    mode,
    client,
    ...agents(client, (m) => perQuestion.push(m)),
    judgePromptsHash: JUDGE_PROMPTS_HASH,
    /** The judge's calls go through the Message Batches API (EVAL_BATCH=1, live and record). */
    batching: opened.batching,
    /** Live and record: a TCP probe of ANTHROPIC_BASE_URL, made by estimate() or else before the first model call. */
    checkServer: () => opened.checkServer(),
    /** The cost estimate before any call: `dryRun` runs the whole pipeline on an in-process client (see estimate.ts). */
    estimate: async (dryRun: (agents: ModelAgents) => Promise<void>): Promise<RunEstimate> => {
      // A server that refuses connections is named before the estimate is printed, not after it.
      await opened.checkServer()
      return opened.estimate((dry) => dryRun(agents(dry, () => {})), {
        models: { generator: config.generatorModel, judge: config.judgeModel },
        toolReplyTokens: TYPICAL_VERDICT_TOKENS,
        basis: estimateBasis,
      })
    },
    /** The report's warnings: the run's own, and the per-question ones (the report sorts them: run order is not stable). */
    warnings: () => ({
      run: [...warnings, ...(mode !== 'replay' && client.ledger.scripted ? [scriptedServerWarning(baseURL)] : [])],
      perQuestion: [...perQuestion],
    }),
    /** Before any call: replay checks the recording holds every question; record starts the recording. */
    begin(inputs: RunInputs) {
      run = inputs
      if (reader) assertRecorded(reader, dir, inputs)
      writer?.start({ ...metadataOf(inputs), scripted: false, server: describeBaseUrl(baseURL), note: 'record run under way' })
    },
    /** After the run: record completes the recording (metadata); returns it. */
    finish(): RecordingMetadata | null {
      if (!writer || !run) return null
      return finishRecording(writer, metadataOf(run), run, baseURL)
    },
  }
}

/** The recording a replay answers from, checked against this run's models and judge prompts. */
function checkRecording(config: EvalConfig, reader: RecordingReader, dir: string, warnings: string[]): void {
  const recorded = reader.metadata
  const mismatched = [
    recorded.models.generator !== config.generatorModel
      ? `generator ${recorded.models.generator} (this run: ${config.generatorModel})`
      : null,
    recorded.models.judge !== config.judgeModel ? `judge ${recorded.models.judge} (this run: ${config.judgeModel})` : null,
  ].filter((m): m is string => m !== null)
  if (mismatched.length > 0)
    throw new InputError(
      `replay: the recording at ${dir} was made with ${mismatched.join(' and ')}; set the models back, or ${HOW_TO_RECORD}`,
    )
  if (recorded.judgePromptsHash !== JUDGE_PROMPTS_HASH) {
    throw new InputError(
      `replay: the judge prompts changed since the recording at ${dir} was made ` +
        `(hash ${recorded.judgePromptsHash}, now ${JUDGE_PROMPTS_HASH}); ${HOW_TO_RECORD}`,
    )
  }
  if (recorded.scripted)
    warnings.push(
      `replaying ${dir}, a scripted recording (${recorded.server}): its numbers measure scripted outputs, not a real model`,
    )
}

/** The generator and the judge on a client; `warn` takes the per-question warnings. */
function agentsOf(config: EvalConfig): (on: ModelClient, warn: (message: string) => void) => ModelAgents {
  return (on, warn) => ({
    answerer: createClaudeAnswerer(on, {
      model: config.generatorModel,
      maxTokens: config.generatorMaxTokens,
      sentences: config.answerSentences,
      warn,
    }),
    reranker: createClaudeReranker(on, { model: config.generatorModel, maxTokens: config.generatorMaxTokens, warn }),
    judge: createModelJudge(on, { model: config.judgeModel, maxTokens: config.judgeMaxTokens }),
  })
}

/** What a recording's metadata says of the run, at its start and at its end. */
function recordingMetadata(config: EvalConfig, now: () => Date, inputs: RunInputs) {
  return {
    schemaVersion: 1 as const,
    name: config.recording,
    recordedAt: now().toISOString(),
    models: { generator: config.generatorModel, judge: config.judgeModel },
    judgePromptsHash: JUDGE_PROMPTS_HASH,
    goldenSetHash: inputs.goldenSetHash,
    corpusHash: inputs.corpusHash,
    sdkVersion: SDK_VERSION,
  }
}

/** Replay: the recording must hold every question of the golden set. */
function assertRecorded(reader: RecordingReader, dir: string, inputs: RunInputs): void {
  const recorded = new Set(reader.metadata.questions)
  const missing = inputs.questionIds.filter((id) => !recorded.has(id))
  if (missing.length > 0) {
    throw new InputError(
      `replay: the recording at ${dir} holds no responses for ${missing.length} question(s) ` +
        `of the golden set: ${missing.join(', ')}; ${HOW_TO_RECORD}`,
    )
  }
}

function scriptedServerWarning(baseURL: string): string {
  return (
    `the server at ${describeBaseUrl(baseURL)} is scripted (it marks its responses so): ` +
    `its numbers measure scripted outputs, not a real model`
  )
}

/** Record: completes the recording, marked as scripted when a scripted server answered. */
function finishRecording(
  writer: RecordingWriter,
  metadata: ReturnType<typeof recordingMetadata>,
  run: RunInputs,
  baseURL: string,
): RecordingMetadata {
  const scripted = writer.scripted
  return writer.finish({
    ...metadata,
    scripted,
    server: scripted ? `scripted local Messages API server (src/model-server/) on ${hostOf(baseURL)}` : describeBaseUrl(baseURL),
    questions: [...run.questionIds],
    note: scripted
      ? 'SCRIPTED: every response comes from the local scripted Messages API server (src/model-server/), ' +
        'not from a model. Its numbers exercise the pipeline; they say nothing about Claude.'
      : 'Responses of the Anthropic Messages API as recorded.',
  })
}
