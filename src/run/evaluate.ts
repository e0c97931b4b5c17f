import { join } from 'node:path'
import type { EvalConfig } from '../contract/eval-config-schema.ts'
import { displayPath, runKnobs, type ProjectConfig, type SystemSpec } from '../config/project-config.ts'
import { loadCorpusFrom } from '../load/corpus.ts'
import { InputError } from '../contract/input-error.ts'
import type { RagSystem } from '../system/rag-system.ts'
import { loadGoldenSet } from '../load/golden-set.ts'
import { contentHash } from '../text/content-hash.ts'
import type { Report } from '../contract/report-schema.ts'
import { scoreRetrieval } from '../scoring/score-retrieval.ts'
import { round4 } from '../statistics/descriptive.ts'
import type { Answerer } from '../builtin/builtin-system.ts'
import { openSystem } from './open-system.ts'
import { countTextTokens, releaseVocabulary } from '../text/tokenizer.ts'
import { pieceCountsFile, readPieceCounts, writePieceCounts } from '../text/token-count-cache.ts'
import type { RunEstimate } from '../contract/model-usage-schema.ts'
import { BatchItemError, ModelCallError, ReplayMissError, RunStoppedError } from '../model/model-errors.ts'
import { MalformedResponseError } from '../model/model-types.ts'
import { BudgetExceededError } from '../model/spending-cap.ts'
import { UsageLedger } from '../model/usage-ledger.ts'
import { renderEstimate } from '../report/render-model-run.ts'
import { collectGarbageAbove } from './collect-garbage.ts'
import { runSystem, type QuestionRun } from './run-system.ts'
import { reportOf } from './assemble-report.ts'
import type { Measurement } from './measurement.ts'
import { questionsOfShard, type Shard } from './shard-assignment.ts'
import { offlineJudgeOnThread } from '../threads/index.ts'

/** A full run's judging, imported on first use: the retrieval tier never loads the judge or the generation metrics. */
const judgeAnswers: typeof import('./judge-answers.ts').judgeAnswers = async (...args) =>
  (await import('./judge-answers.ts')).judgeAnswers(...args)

export interface EvaluateOptions {
  tier: Report['tier']
  env?: NodeJS.ProcessEnv
  /** Clock, injectable so tests can pin `run`. */
  now?: () => Date
  /** Root folder of the accepted baselines (one per mode: baselineDirFor); default the project's; null to skip the comparison. */
  baselineRoot?: string | null
  /** The system under test instead of the project's (tests, comparisons). */
  system?: SystemSpec
  /** Stops the run: nothing new starts, calls in flight land in the cache, and evaluate() rejects with the reason. */
  signal?: AbortSignal
  /**
   * Lines for the terminal while the run goes: the cost estimate before the first model call, and the
   * Message Batches progress (EVAL_BATCH=1). Nothing is printed without it; the report holds the estimate either way.
   */
  log?: (line: string) => void
  /**
   * Only this shard's questions (assignShards); the inputs' hashes still describe the whole golden set,
   * so the shards' measurements merge into the report of one run (merge-shards.ts).
   */
  shard?: Shard
}

/**
 * The cap's own error when the run stopped at EVAL_MAX_USD (it may arrive wrapped, e.g. in a
 * SystemFailure), with what was spent once the calls in flight have landed; any other error as it is.
 */
function budgetStop(error: unknown, spent: { spentUsd: number; paidCalls: number } | undefined): unknown {
  const cap = causeOf(error, (e): e is BudgetExceededError => e instanceof BudgetExceededError)
  return cap === null ? error : spent ? cap.settled(spent.spentUsd, spent.paidCalls) : cap
}

/** The first error along `error`'s cause chain that `is` accepts (errors arrive wrapped, e.g. in a SystemFailure). */
function causeOf<E extends Error>(error: unknown, is: (e: Error) => e is E): E | null {
  for (let e: unknown = error; e instanceof Error; e = e.cause) if (is(e)) return e
  return null
}

const RUN_STOPPERS = [InputError, ModelCallError, ReplayMissError, BatchItemError, MalformedResponseError, RunStoppedError]

/** Errors that concern the whole run rather than one question: the run stops instead of recording a system error. */
function stopsRun(error: unknown): boolean {
  return causeOf(error, (e): e is Error => RUN_STOPPERS.some((kind) => e instanceof kind)) !== null
}

/**
 * The whole evaluation: load and validate inputs, run the system under test on every question, score,
 * summarise and build the report. Everything but `run` is a pure function of the inputs and config.
 */
export async function evaluate(project: ProjectConfig, options: EvaluateOptions): Promise<Report> {
  return reportOf(project, await measure(project, options), options.baselineRoot)
}

/**
 * The measuring half of evaluate(): load and validate inputs, run the system under test on every
 * question (of the shard, if one is given), score and judge each; nothing over the questions as a whole.
 */
export async function measure(project: ProjectConfig, options: EvaluateOptions): Promise<Measurement> {
  const now = options.now ?? (() => new Date())
  const startedAt = now()
  const started = performance.now()
  const env = options.env ?? process.env
  const config: EvalConfig = runKnobs(project, env)
  const generate = options.tier === 'full'
  // live, record, replay: Claude answers and judges through one model client (src/model/); the retrieval tier asks it nothing.
  const log = options.log ?? (() => {})
  // Imported only here: an offline or retrieval-tier run never loads the SDK (a fifth of `rag-eval retrieval`'s start-up).
  const { mode } = config
  const model =
    mode === 'offline' || !generate
      ? null
      : await import('./model-tier.ts').then((tier) =>
          tier.openModelTier({ ...config, mode }, env, tier.modelTierPaths(project), now, { progress: log }),
        )
  // Token counts of the pieces earlier runs met (<root>/.cache/tokens/): chunking known texts needs no vocabulary.
  const tokenCounts = pieceCountsFile(join(project.root, '.cache', 'tokens'))
  const knownPieces = readPieceCounts(tokenCounts)
  const loaded = project.corpus === null ? null : loadCorpusFrom(project.corpus)
  const corpus = loaded?.documents ?? null
  const goldenSet = loadGoldenSet(project.goldenSet, corpus)
  // A record run writes one recording of the whole golden set: n machines cannot each write their part of it.
  if (options.shard && options.shard.count > 1 && config.mode === 'record') {
    throw new InputError(
      `EVAL_MODE=record cannot run in shards (this is shard ${options.shard.index}/${options.shard.count}): record on one machine, then replay or run live in shards`,
    )
  }
  const questions = options.shard ? questionsOfShard(goldenSet, options.shard) : goldenSet
  const corpusHash = contentHash((corpus ?? []).flatMap((doc) => [doc.id, doc.title, doc.updated ?? '', doc.body]))
  const goldenSetHash = contentHash([JSON.stringify(goldenSet)])
  const warnings: string[] = []
  const spec = options.system ?? project.system
  // A token covers at least one character, so the exact count is needed only for a budget near the corpus's size.
  const corpusChars = corpus === null ? 0 : corpus.reduce((sum, doc) => sum + doc.body.length, 0)
  const corpusTokens =
    corpus === null || config.budgetTokens * 4 < corpusChars
      ? null
      : corpus.reduce((sum, doc) => sum + countTextTokens(doc.body), 0)
  // Only where the suite packs the context (the built-in system, an HTTP service that sends no context).
  const suitePacks = spec === 'builtin' || (typeof spec === 'object' && 'http' in spec)
  if (suitePacks && corpusTokens !== null && config.budgetTokens > corpusTokens) {
    warnings.push(
      `budgetTokens ${config.budgetTokens} exceeds the whole corpus (${corpusTokens} tokens): every ranked chunk fits, so recall does not measure the context budget`,
    )
  }
  model?.begin({ questionIds: questions.map((q) => q.id), goldenSetHash, corpusHash })
  // Stopped (SIGTERM, Vitest gone): the model client sends nothing more, and what is in flight lands in the cache.
  options.signal?.addEventListener(
    'abort',
    () =>
      void model?.client.stopAndDrain(String((options.signal?.reason as Error | undefined)?.message ?? 'the run was stopped')),
    { once: true },
  )
  // In the model modes the system answers through Claude; while the cost estimate is made, through its stand-in.
  let standInAnswerer: Answerer | null = null
  const answerer: Answerer | undefined = model
    ? (question, context) => (standInAnswerer ?? model.answerer)(question, context)
    : undefined
  // The built-in system's chunks and index, as an earlier run over this corpus built them (<root>/.cache/index/).
  const corpusCache = {
    folder: join(project.root, '.cache', 'index'),
    corpusHash,
    warn: (message: string) => warnings.push(message),
  }
  const system = await openSystem(spec, { corpus, config, generate, answerer, root: project.root, log, corpusCache })
  // An offline run counts no tokens once the corpus is chunked (a model run prices its requests by them):
  // the vocabulary goes with the corpus work's garbage (a large corpus's chunking), before the questions run.
  if (model === null) releaseVocabulary()
  collectGarbageAbove(100)
  try {
    const measurement = await evaluateWith(system)
    // The pieces this run counted, for the next: a run over known texts never loads the vocabulary.
    writePieceCounts(tokenCounts, knownPieces)
    return measurement
  } finally {
    await system.close?.()
  }

  async function evaluateWith(system: RagSystem): Promise<Measurement> {
    const texts = new Map((corpus ?? []).map((doc) => [doc.id, doc.body]))
    const docText = (id: string) => texts.get(id) ?? ''
    const score = (runs: Awaited<ReturnType<typeof runSystem>>) =>
      runs.map((run) => ({
        ...scoreRetrieval(run.question, run.output, system.chunkCountByDoc, config.k),
        systemError: run.systemError,
      }))
    // The judge's calls through the Message Batches API: every question judged at once, so one batch takes them all.
    const judgeConcurrency = model?.batching ? Number.POSITIVE_INFINITY : config.concurrency

    // live and record: the money, before any call (replay costs nothing; a system of the user's own cannot be dry-run).
    let estimate: RunEstimate | null = null
    if (model !== null && model.mode !== 'replay') {
      if (spec !== 'builtin') {
        // No dry run to do it: the API's address is checked before the run starts paying.
        await model.checkServer()
        log(
          `cost estimate: none: the system under test is not the built-in one, so the prompts it will send are not known before it runs${config.maxUsd === null ? '' : `; EVAL_MAX_USD=${config.maxUsd} still holds for every model call`}`,
        )
      } else {
        estimate = await model
          .estimate(async (agents) => {
            standInAnswerer = agents.answerer
            const dryRuns = await runSystem(system, questions, config.concurrency, stopsRun)
            await judgeAnswers(score(dryRuns), dryRuns, agents.judge, docText, config.concurrency, undefined, config.repeats)
          })
          .finally(() => (standInAnswerer = null))
        log(renderEstimate(estimate).join('\n'))
      }
    }

    // A large offline run judges on a second thread, each answer as soon as it is given: beside the answering.
    const threaded = generate && model === null ? await offlineJudgeOnThread(questions.length) : null
    const judge = generate ? (model?.judge ?? threaded ?? (await import('../judge/offline-judge.ts')).offlineJudge) : null
    const prefetch = threaded
      ? await import('./judge-answers.ts').then(({ judgeInputOf }) => (run: QuestionRun) => {
          const input = judgeInputOf(run, 0)
          if (input) threaded.prefetch(input)
        })
      : undefined
    let runs: Awaited<ReturnType<typeof runSystem>>
    let judged: Awaited<ReturnType<typeof judgeAnswers>>
    try {
      runs = await runSystem(system, questions, config.concurrency, stopsRun, options.signal, prefetch)
      const retrieved = score(runs)
      judged = judge
        ? await judgeAnswers(retrieved, runs, judge, docText, judgeConcurrency, options.signal, config.repeats)
        : { outcomes: retrieved, judgeMs: [] }
      options.signal?.throwIfAborted()
    } catch (error) {
      // Whatever is in flight has been (or will be) paid for: let it land in the cache before the run ends.
      await model?.client.drain()
      throw budgetStop(error, model?.client)
    } finally {
      await threaded?.close()
    }
    const { outcomes, judgeMs } = judged
    const retrieveTimes = runs.map((run) => run.retrieveMs)
    const generateTimes = runs.flatMap((run) => (run.generateMs === null ? [] : [run.generateMs]))
    model?.finish()
    const ledger = model?.client.ledger ?? new UsageLedger()
    const modelWarnings = model?.warnings() ?? { run: [], perQuestion: [] }
    return {
      tier: options.tier,
      // `retriever` (the built-in retrieval's kind) stays in the report contract beside the options that replaced it.
      config: { ...config, system: system.name, retriever: config.retrieval.kind },
      corpus: {
        documents: corpus?.length ?? null,
        chunks: system.chunkCountByDoc ? [...system.chunkCountByDoc.values()].reduce((a, b) => a + b, 0) : null,
        goldenSet: displayPath(project, project.goldenSet),
        excluded: (loaded?.excluded ?? []).map(({ file, reason }) => ({ file: displayPath(project, file), reason })),
      },
      inputs: {
        corpusHash,
        goldenSetHash,
        judgePromptsHash: model && judge ? model.judgePromptsHash : null,
      },
      questions: outcomes,
      goldenSetIds: goldenSet.map((q) => q.id),
      judge: judge?.name ?? null,
      scripted: ledger.scripted,
      warnings: [...modelWarnings.run, ...warnings],
      questionWarnings: modelWarnings.perQuestion,
      run: {
        startedAt: startedAt.toISOString(),
        durationMs: round4(performance.now() - started),
        // The model stages: the client's API calls (cache hits and replays have no latency); else the stage's wall times.
        stageMs: {
          retrieve: retrieveTimes,
          generate: model && spec === 'builtin' ? ledger.latencies('generator') : generateTimes,
          judge: model ? ledger.latencies('judge') : judgeMs,
        },
        usage: ledger.usage(),
        modelCalls: ledger.calls(),
        estimate,
        batches: (model?.client.batches ?? []).map((batch) => ({ ...batch })),
      },
    }
  }
}
