import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { loadAttackSet } from '../load/attack-set.ts'
import { runAttacks } from './attacks.ts'
import type { EvalConfig } from '../contract/eval-config-schema.ts'
import { displayPath, runKnobs, type ProjectConfig, type SystemSpec } from '../config/project-config.ts'
import { loadCorpusFrom, type CorpusDocument } from '../load/corpus.ts'
import type { GoldenQuestion } from '../contract/golden-set-schema.ts'
import type { QuestionOutcome } from '../contract/question-outcome-schema.ts'
import type { Judge } from '../judge/judge.ts'
import type { ModelAgents, ModelTier } from './model-tier.ts'
import { InputError } from '../contract/input-error.ts'
import type { RagSystem } from '../system/rag-system.ts'
import { checkRelevantGrade, loadGoldenSet } from '../load/golden-set.ts'
import { contentHash } from '../text/content-hash.ts'
import type { Report } from '../contract/report-schema.ts'
import type { MayRead } from '../contract/access-schema.ts'
import { scoreRetrieval } from '../scoring/score-retrieval.ts'
import { runLeaks } from '../scoring/permissions/permission-leaks.ts'
import { accessDecision } from '../load/access-rules.ts'
import { round4 } from '../statistics/descriptive.ts'
import type { Answerer, Reranker } from '../builtin/builtin-system.ts'
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
import { oversizedChunkWarning, pipelineStageTimes, runSystem, type QuestionRun } from './run-system.ts'
import { closeSystem } from '../system/close-system.ts'
import { reportOf } from './assemble-report.ts'
import type { Measurement } from './measurement.ts'
import { questionsOfShard, type Shard } from './shard-assignment.ts'
import { offlineJudgeOnThread, type PrefetchingJudge } from '../threads/index.ts'
import { combineTrials } from '../gate/trials.ts'

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
  /** Terminal lines while the run goes (cost estimate, batch progress); the report holds the estimate either way. */
  log?: (line: string) => void
  /** Only this shard's questions; the input hashes still describe the whole golden set, so shards merge into one run's report. */
  shard?: Shard
}

/** The cap's error unwrapped (e.g. from a SystemFailure), with what was spent once calls in flight landed; else `error`. */
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

/** The whole evaluation; everything in the report but `run` is a pure function of the inputs and config. */
export async function evaluate(project: ProjectConfig, options: EvaluateOptions): Promise<Report> {
  return reportOf(project, await measure(project, options), options.baselineRoot)
}

/** What every step of a run reads: its project, options and knobs, the system's spec and the model tier. */
interface RunContext {
  project: ProjectConfig
  options: EvaluateOptions
  config: EvalConfig
  /** The full tier: the system answers and its answers are judged (the retrieval tier only retrieves). */
  generate: boolean
  spec: SystemSpec
  log: (line: string) => void
  /** live, record, replay: Claude answers and judges through one model client (src/model/); null offline and in the retrieval tier. */
  model: ModelTier | null
}

/** The run's inputs: the corpus (null for a system of the user's own without one), the golden set, the questions to run and their hashes. */
interface LoadedInputs {
  loaded: ReturnType<typeof loadCorpusFrom> | null
  corpus: CorpusDocument[] | null
  goldenSet: GoldenQuestion[]
  /** The golden set's questions, or the shard's. */
  questions: GoldenQuestion[]
  corpusHash: string
  goldenSetHash: string
  /** Who may read what (docs/security.md): every question with a userContext is checked against it. */
  mayRead: MayRead
}

/** What answering and judging the questions gave: the system's runs, their outcomes and the judge's times. */
interface Answered {
  runs: QuestionRun[]
  outcomes: QuestionOutcome[]
  judgeMs: number[]
  judge: Judge | null
  estimate: RunEstimate | null
}

/** The measuring half of evaluate(): each question (of the shard, if any) answered, scored, judged; nothing across questions. */
export async function measure(project: ProjectConfig, options: EvaluateOptions): Promise<Measurement> {
  const now = options.now ?? (() => new Date())
  const startedAt = now()
  const started = performance.now()
  const env = options.env ?? process.env
  const config: EvalConfig = runKnobs(project, env)
  const generate = options.tier === 'full'
  const log = options.log ?? (() => {})
  const model = await openModel(project, config, generate, env, now, log)
  const run: RunContext = { project, options, config, generate, spec: options.system ?? project.system, log, model }
  // Token counts of the pieces earlier runs met (<root>/.cache/tokens/): chunking known texts needs no vocabulary.
  const tokenCounts = pieceCountsFile(join(project.root, '.cache', 'tokens'))
  const knownPieces = readPieceCounts(tokenCounts)
  const inputs = loadInputs(run)
  const warnings = budgetWarnings(run, inputs.corpus)
  model?.begin({
    questionIds: inputs.questions.map((q) => q.id),
    goldenSetHash: inputs.goldenSetHash,
    corpusHash: inputs.corpusHash,
  })
  stopModelOnAbort(run)
  const answerer = model ? switchableAgents(model) : null
  // The built-in system's chunks and index, as an earlier run over this corpus built them (<root>/.cache/index/).
  const corpusCache = {
    folder: join(project.root, '.cache', 'index'),
    corpusHash: inputs.corpusHash,
    warn: (message: string) => warnings.push(message),
  }
  const system = await openSystem(run.spec, {
    corpus: inputs.corpus,
    config,
    generate,
    answerer: answerer?.answer,
    reranker: answerer?.rerank,
    root: project.root,
    source: project.source,
    env,
    log,
    corpusCache,
  })
  // An offline run counts no tokens once the corpus is chunked (a model run prices its requests by them):
  // the vocabulary goes with the corpus work's garbage (a large corpus's chunking), before the questions run.
  if (model === null) releaseVocabulary()
  collectGarbageAbove(100)
  let measurement: Measurement
  try {
    const estimate = await estimateCost(run, inputs, system, answerer)
    const answered = await answerAndJudge(run, inputs, system, estimate)
    // Before the measurement: it closes the recording and reads the model's usage, the attack judge's calls included.
    const attacks = await tryAttacks(run, system)
    measurement = measurementOf(run, inputs, system, answered, warnings, { startedAt, started })
    if (attacks) measurement.attacks = attacks
    // The pieces this run counted, for the next: a run over known texts never loads the vocabulary.
    writePieceCounts(tokenCounts, knownPieces)
  } catch (error) {
    // The run's own error is the one thrown; a close() failing as well is only told.
    const closeFailure = await closeSystem(system)
    if (closeFailure !== null) log(`warning: ${closeFailure}`)
    throw error
  }
  // A close() that fails keeps what was measured: it is a warning of the report.
  const closeFailure = await closeSystem(system)
  if (closeFailure !== null) measurement.warnings.push(closeFailure)
  return measurement
}

/** The model tier of a run that answers in a model mode; imported only here: an offline or retrieval-tier run never loads the SDK. */
async function openModel(
  project: ProjectConfig,
  config: EvalConfig,
  generate: boolean,
  env: NodeJS.ProcessEnv,
  now: () => Date,
  log: (line: string) => void,
): Promise<ModelTier | null> {
  const { mode } = config
  if (mode === 'offline' || !generate) return null
  const tier = await import('./model-tier.ts')
  return tier.openModelTier({ ...config, mode }, env, tier.modelTierPaths(project), now, { progress: log })
}

/** The corpus and golden set, loaded and checked, with the questions this run (or shard) answers and their hashes. */
function loadInputs({ project, options, config }: RunContext): LoadedInputs {
  const loaded = project.corpus === null ? null : loadCorpusFrom(project.corpus)
  const corpus = loaded?.documents ?? null
  const goldenSet = loadGoldenSet(project.goldenSet, corpus)
  checkRelevantGrade(goldenSet, config.relevantGrade, project.goldenSet)
  // A record run writes one recording of the whole golden set: n machines cannot each write their part of it.
  if (options.shard && options.shard.count > 1 && config.mode === 'record') {
    throw new InputError(
      `EVAL_MODE=record cannot run in shards (this is shard ${options.shard.index}/${options.shard.count}): record on one machine, then replay or run live in shards`,
    )
  }
  return {
    loaded,
    corpus,
    goldenSet,
    questions: options.shard ? questionsOfShard(goldenSet, options.shard) : goldenSet,
    corpusHash: contentHash((corpus ?? []).flatMap((doc) => [doc.id, doc.title, doc.updated ?? '', doc.body])),
    goldenSetHash: contentHash([JSON.stringify(goldenSet)]),
    mayRead: accessDecision(project.access, project.corpus && corpus ? { dir: project.corpus.dir, documents: corpus } : null),
  }
}

/** The run's first warnings: a context budget larger than the whole corpus measures nothing. */
function budgetWarnings({ config, spec }: RunContext, corpus: readonly CorpusDocument[] | null): string[] {
  // A token covers at least one character, so the exact count is needed only for a budget near the corpus's size.
  const corpusChars = corpus === null ? 0 : corpus.reduce((sum, doc) => sum + doc.body.length, 0)
  const corpusTokens =
    corpus === null || config.budgetTokens * 4 < corpusChars
      ? null
      : corpus.reduce((sum, doc) => sum + countTextTokens(doc.body), 0)
  // Only where the suite packs the context (the built-in system, an HTTP service that sends no context).
  const suitePacks = spec === 'builtin' || (typeof spec === 'object' && 'http' in spec)
  return suitePacks && corpusTokens !== null && config.budgetTokens > corpusTokens
    ? [
        `budgetTokens ${config.budgetTokens} exceeds the whole corpus (${corpusTokens} tokens): every ranked chunk fits, so recall does not measure the context budget`,
      ]
    : []
}

/** Stopped (SIGTERM, Vitest gone): the model client sends nothing more, and what is in flight lands in the cache. */
function stopModelOnAbort({ options, model }: RunContext): void {
  options.signal?.addEventListener(
    'abort',
    () =>
      void model?.client.stopAndDrain(String((options.signal?.reason as Error | undefined)?.message ?? 'the run was stopped')),
    { once: true },
  )
}

type SystemAgents = Pick<ModelAgents, 'answerer' | 'reranker'>

/** The built-in system's answerer and reranker in a model mode: Claude's, or the estimate's (nothing sent) while the cost estimate is made. */
function switchableAgents(claude: SystemAgents) {
  let standIn: SystemAgents | null = null
  return {
    answer: ((question, context) => (standIn ?? claude).answerer(question, context)) satisfies Answerer,
    rerank: ((question, query, candidates) => (standIn ?? claude).reranker(question, query, candidates)) satisfies Reranker,
    /** Answers and reranks through `agents` until it is given null. */
    standIn: (agents: SystemAgents | null) => (standIn = agents),
  }
}
type SwitchableAnswerer = ReturnType<typeof switchableAgents>

/** The texts of the corpus's documents by id, for the judge's evidence ('' for an unknown id). */
function docTextOf(corpus: readonly CorpusDocument[] | null): (id: string) => string {
  const texts = new Map((corpus ?? []).map((doc) => [doc.id, doc.body]))
  return (id) => texts.get(id) ?? ''
}

/** Each run's retrieval scores, with the system's error where it failed and, for a question with a userContext, its leaks. */
function scoreRuns(
  runs: readonly QuestionRun[],
  system: RagSystem,
  config: EvalConfig,
  { mayRead, corpus }: LoadedInputs,
): QuestionOutcome[] {
  const leaks = runLeaks(runs, mayRead, corpus ?? [])
  return runs.map((run, i) => ({
    ...scoreRetrieval(run.question, run.output, system.chunkCountByDoc, config),
    systemError: run.systemError,
    ...(leaks[i] === undefined ? {} : { leaks: leaks[i] }),
  }))
}

/**
 * live and record: the cost before any call, from a dry run of the whole pipeline (nothing sent). A system of the
 * user's own cannot be dry-run, so its server is checked instead.
 */
async function estimateCost(
  { config, spec, log, model }: RunContext,
  inputs: LoadedInputs,
  system: RagSystem,
  answerer: SwitchableAnswerer | null,
): Promise<RunEstimate | null> {
  if (model === null || model.mode === 'replay') return null
  if (spec !== 'builtin') {
    // No dry run to do it: the API's address is checked before the run starts paying.
    await model.checkServer()
    log(
      `cost estimate: none: the system under test is not the built-in one, so the prompts it will send are not known before it runs${config.maxUsd === null ? '' : `; EVAL_MAX_USD=${config.maxUsd} still holds for every model call`}`,
    )
    return null
  }
  const estimate = await model
    .estimate(async (agents) => {
      answerer?.standIn(agents)
      const trials = config.trials ?? 1
      for (let trial = 0; trial < trials; trial++) {
        const dryRuns = await runSystem(
          system,
          inputs.questions,
          config.concurrency,
          stopsRun,
          undefined,
          undefined,
          trials > 1 ? trial : undefined,
        )
        const scored = scoreRuns(dryRuns, system, config, inputs)
        await judgeAnswers(scored, dryRuns, agents.judge, docTextOf(inputs.corpus), config.concurrency, undefined, config.repeats)
      }
    })
    .finally(() => answerer?.standIn(null))
  log(renderEstimate(estimate).join('\n'))
  return estimate
}

/** The judge of a full run (null in the retrieval tier) and, for a large offline run, its thread, handed each answer as it is given. */
async function chooseJudge(
  { generate, model }: RunContext,
  questions: number,
): Promise<{ judge: Judge | null; threaded: PrefetchingJudge | null; prefetch: ((run: QuestionRun) => void) | undefined }> {
  // A large offline run judges on a second thread, each answer as soon as it is given: beside the answering.
  const threaded = generate && model === null ? await offlineJudgeOnThread(questions) : null
  const judge = generate ? (model?.judge ?? threaded ?? (await import('../judge/offline-judge.ts')).offlineJudge) : null
  const prefetch = threaded
    ? await import('./judge-answers.ts').then(({ judgeInputOf }) => (run: QuestionRun) => {
        const input = judgeInputOf(run, 0)
        if (input) threaded.prefetch(input)
      })
    : undefined
  return { judge, threaded, prefetch }
}

/** Runs the system on every question, scores each answer's retrieval and (in the full tier) judges it. */
async function answerAndJudge(
  run: RunContext,
  inputs: LoadedInputs,
  system: RagSystem,
  estimate: RunEstimate | null,
): Promise<Answered> {
  const { config, options, model } = run
  const { questions, corpus } = inputs
  const { judge, threaded, prefetch } = await chooseJudge(run, questions.length)
  // The judge's calls through the Message Batches API: every question judged at once, so one batch takes them all.
  const judgeConcurrency = model?.batching ? Number.POSITIVE_INFINITY : config.concurrency
  try {
    // With trials, every question is asked again per trial (each trial its own model calls: SystemQuestion.trial).
    const trials = config.trials ?? 1
    const answered: Pick<Answered, 'runs' | 'outcomes' | 'judgeMs'>[] = []
    for (let trial = 0; trial < trials; trial++) {
      const runs = await runSystem(
        system,
        questions,
        config.concurrency,
        stopsRun,
        options.signal,
        prefetch,
        trials > 1 ? trial : undefined,
      )
      const retrieved = scoreRuns(runs, system, config, inputs)
      const { outcomes, judgeMs } = judge
        ? await judgeAnswers(retrieved, runs, judge, docTextOf(corpus), judgeConcurrency, options.signal, config.repeats)
        : { outcomes: retrieved, judgeMs: [] }
      options.signal?.throwIfAborted()
      answered.push({ runs, outcomes, judgeMs })
    }
    return {
      runs: answered.flatMap((a) => a.runs),
      outcomes: trials > 1 ? combineTrials(answered.map((a) => a.outcomes)) : answered[0]!.outcomes,
      judgeMs: answered.flatMap((a) => a.judgeMs),
      judge,
      estimate,
    }
  } catch (error) {
    // Whatever is in flight has been (or will be) paid for: let it land in the cache before the run ends.
    await model?.client.drain()
    throw budgetStop(error, model?.client)
  } finally {
    await threaded?.close()
  }
}

/**
 * The attack set's attacks (docs/security.md), when its file exists: in a full run (the retrieval tier has no answers
 * to obey anything) and by the first shard alone (a merge keeps the first shard's).
 */
async function tryAttacks({ project, options, config, generate, model }: RunContext, system: RagSystem) {
  if (!generate || (options.shard && options.shard.index !== 1) || !existsSync(project.attackSet)) return undefined
  const questions = loadAttackSet(project.attackSet).questions
  const judge = { client: model?.client ?? null, config }
  return runAttacks(system, { questions, shownAs: displayPath(project, project.attackSet) }, judge, stopsRun, options.signal)
}

/** The measurement of a run: its outcomes, inputs and facts (the model's usage, the stages' times). */
function measurementOf(
  { project, options, config, spec, model }: RunContext,
  { loaded, corpus, goldenSet, corpusHash, goldenSetHash }: LoadedInputs,
  system: RagSystem,
  { runs, outcomes, judgeMs, judge, estimate }: Answered,
  warnings: readonly string[],
  clock: { startedAt: Date; started: number },
): Measurement {
  const oversized = oversizedChunkWarning(runs, config.budgetTokens)
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
    warnings: [...modelWarnings.run, ...warnings, ...(oversized === null ? [] : [oversized])],
    questionWarnings: modelWarnings.perQuestion,
    run: {
      startedAt: clock.startedAt.toISOString(),
      durationMs: round4(performance.now() - clock.started),
      // The model stages: the client's API calls (cache hits and replays have no latency); else the stage's wall times.
      stageMs: {
        retrieve: retrieveTimes,
        generate: model && spec === 'builtin' ? ledger.latencies('generator') : generateTimes,
        judge: model ? ledger.latencies('judge') : judgeMs,
        pipeline: pipelineStageTimes(runs),
        system: runs.map((run) => run.callMs),
      },
      questionCosts: runs.map(({ question }) => ledger.questionCost(question.id)),
      usage: ledger.usage(),
      modelCalls: ledger.calls(),
      estimate,
      batches: (model?.client.batches ?? []).map((batch) => ({ ...batch })),
    },
  }
}
