import { dirname, join } from 'node:path/posix'
import { loadEvalConfig, type EvalConfig } from '../config/eval-config.ts'
import { loadCorpus, type CorpusDocument } from '../load/corpus.ts'
import type { RagSystem } from '../system/rag-system.ts'
import { loadGoldenSet } from '../load/golden-set.ts'
import { contentHash } from '../load/content-hash.ts'
import { baselineDirFor, readBaseline } from '../gate/baseline-files.ts'
import { evaluateGate } from '../gate/gate.ts'
import type { Report } from '../report/report-schema.ts'
import { scoreRetrieval } from '../scoring/score-retrieval.ts'
import { percentile, round4 } from '../summary/statistics.ts'
import { summarise } from '../summary/summarise.ts'
import { createBuiltinSystem, type Answerer } from '../system/builtin-system.ts'
import { openModelTier, type ModelTierPaths } from '../model/model-tier.ts'
import type { RunEstimate } from '../model/estimate.ts'
import { BudgetExceededError } from '../model/spending-cap.ts'
import { UsageLedger } from '../model/usage-ledger.ts'
import { renderEstimate } from '../report/render-model-run.ts'
import { runSystem } from './run-system.ts'
import { calibrate } from '../calibration/calibrate.ts'
import { loadHumanLabels } from '../calibration/load-human-labels.ts'
import { judgeAnswers } from './judge-answers.ts'
import { offlineJudge } from '../judge/offline-judge.ts'

export interface EvaluationPaths {
  corpusDir: string
  goldenSetFile: string
  configFile: string
  /** People's labels of sampled answers (pnpm label); the judge is calibrated against them. */
  humanLabelsFile: string
  /** Model prices (USD per million tokens); default: model-prices.json beside the config file. */
  pricesFile?: string
  /** The model response cache; default EVAL_CACHE_DIR, else .cache/model. */
  cacheDir?: string
  /** Where recordings live; default EVAL_RECORDINGS_DIR, else fixtures/recordings. */
  recordingsDir?: string
}

/** The repository's own inputs, relative to a project root. */
export function defaultPaths(root: string): EvaluationPaths {
  return {
    corpusDir: join(root, 'corpus'),
    goldenSetFile: join(root, 'evals', 'golden-set.json'),
    configFile: join(root, 'evals', 'eval.config.json'),
    humanLabelsFile: join(root, 'evals', 'human-labels.json'),
    pricesFile: join(root, 'evals', 'model-prices.json'),
    recordingsDir: join(root, 'fixtures', 'recordings'),
  }
}

/** Where the model tier's files are: the paths given, else the environment, else the defaults. */
function modelTierPaths(paths: EvaluationPaths, env: NodeJS.ProcessEnv): ModelTierPaths {
  return {
    pricesFile: paths.pricesFile ?? join(dirname(paths.configFile), 'model-prices.json'),
    cacheDir: paths.cacheDir ?? (env.EVAL_CACHE_DIR || join('.cache', 'model')),
    recordingsDir: paths.recordingsDir ?? (env.EVAL_RECORDINGS_DIR || join('fixtures', 'recordings')),
  }
}

/** p50/p95 of a stage's wall times; null when the stage did not run. */
function latency(times: readonly number[]): { p50: number; p95: number } | null {
  const p50 = percentile(times, 50)
  const p95 = percentile(times, 95)
  return p50 === null || p95 === null ? null : { p50: round4(p50), p95: round4(p95) }
}

export interface EvaluateOptions {
  tier: Report['tier']
  env?: NodeJS.ProcessEnv
  /** Clock, injectable so tests can pin `run`. */
  now?: () => Date
  /** Root folder of the accepted baselines (one per mode: baselineDirFor); null to skip the comparison. */
  baselineRoot?: string | null
  /**
   * The system under test; the built-in BM25 system when absent (a user's pipeline plugs in here). In
   * the model modes `answerer` is Claude through the run's model client (cache, record, replay, usage).
   */
  system?: (corpus: readonly CorpusDocument[], config: EvalConfig & { generate: boolean; answerer?: Answerer | undefined }) => RagSystem
  /**
   * Lines for the terminal while the run goes: the cost estimate before the first model call, and the
   * Message Batches progress (EVAL_BATCH=1). Nothing is printed without it; the report holds the estimate either way.
   */
  log?: (line: string) => void
}

/**
 * The cap's own error when the run stopped at EVAL_MAX_USD (it may arrive wrapped, e.g. in a
 * SystemFailure), with what was spent once the calls in flight have landed; any other error as it is.
 */
function budgetStop(error: unknown, spent: { spentUsd: number; paidCalls: number } | undefined): unknown {
  for (let e: unknown = error; e instanceof Error; e = e.cause) if (e instanceof BudgetExceededError) return spent ? e.settled(spent.spentUsd, spent.paidCalls) : e
  return error
}

/**
 * The whole evaluation: load and validate inputs, run the built-in system on every question, score,
 * summarise and build the report. Everything but `run` is a pure function of the inputs and config.
 */
export async function evaluate(paths: EvaluationPaths, options: EvaluateOptions): Promise<Report> {
  const now = options.now ?? (() => new Date())
  const startedAt = now()
  const started = performance.now()
  const env = options.env ?? process.env
  const config: EvalConfig = loadEvalConfig(paths.configFile, env)
  const generate = options.tier === 'full'
  // live, record, replay: Claude answers and judges through one model client (src/model/); the retrieval tier asks it nothing.
  const log = options.log ?? (() => {})
  const model = config.mode === 'offline' || !generate ? null : openModelTier({ ...config, mode: config.mode }, env, modelTierPaths(paths, env), now, { progress: log })
  const corpus = loadCorpus(paths.corpusDir)
  const questions = loadGoldenSet(paths.goldenSetFile, corpus)
  const corpusHash = contentHash(corpus.flatMap((doc) => [doc.id, doc.title, doc.updated, doc.body]))
  const goldenSetHash = contentHash([JSON.stringify(questions)])
  model?.begin({ questionIds: questions.map((q) => q.id), goldenSetHash, corpusHash })
  // In the model modes the system answers through Claude; while the cost estimate is made, through its stand-in.
  let standInAnswerer: Answerer | null = null
  const answerer: Answerer | undefined = model ? (question, context) => (standInAnswerer ?? model.answerer)(question, context) : undefined
  const system = (options.system ?? createBuiltinSystem)(corpus, { ...config, generate, answerer })
  const texts = new Map(corpus.map((doc) => [doc.id, doc.body]))
  const docText = (id: string) => texts.get(id) ?? ''
  const score = (runs: Awaited<ReturnType<typeof runSystem>>) => runs.map((run) => scoreRetrieval(run.question, run.output, system.chunkCountByDoc, config.k))
  // The judge's calls through the Message Batches API: every question judged at once, so one batch takes them all.
  const judgeConcurrency = model?.batching ? Number.POSITIVE_INFINITY : config.concurrency

  // live and record: the money, before any call (replay costs nothing; a system of the user's own cannot be dry-run).
  let estimate: RunEstimate | null = null
  if (model !== null && model.mode !== 'replay') {
    if (options.system) {
      log(`cost estimate: none: the system under test is not the built-in one, so the prompts it will send are not known before it runs${config.maxUsd === null ? '' : `; EVAL_MAX_USD=${config.maxUsd} still holds for every model call`}`)
    } else {
      estimate = await model
        .estimate(async (agents) => {
          standInAnswerer = agents.answerer
          const dryRuns = await runSystem(system, questions, config.concurrency)
          await judgeAnswers(score(dryRuns), dryRuns, agents.judge, docText, config.concurrency)
        })
        .finally(() => (standInAnswerer = null))
      log(renderEstimate(estimate).join('\n'))
    }
  }

  const judge = generate ? (model?.judge ?? offlineJudge) : null
  let runs: Awaited<ReturnType<typeof runSystem>>
  let judged: Awaited<ReturnType<typeof judgeAnswers>>
  try {
    runs = await runSystem(system, questions, config.concurrency)
    const retrieved = score(runs)
    judged = judge ? await judgeAnswers(retrieved, runs, judge, docText, judgeConcurrency) : { outcomes: retrieved, judgeMs: [] }
  } catch (error) {
    // Whatever is in flight has been (or will be) paid for: let it land in the cache before the run ends.
    await model?.client.drain()
    throw budgetStop(error, model?.client)
  }
  const { outcomes, judgeMs } = judged
  const retrieveTimes = runs.map((run) => run.retrieveMs)
  const generateTimes = runs.flatMap((run) => (run.generateMs === null ? [] : [run.generateMs]))
  model?.finish()
  const ledger = model?.client.ledger ?? new UsageLedger()
  const judgeErrors = outcomes.filter((o) => (o.generation?.judgeErrors.length ?? 0) > 0).length
  const report: Report = {
    schemaVersion: 1,
    tier: options.tier,
    config: { ...config, system: system.name },
    corpus: {
      documents: corpus.length,
      chunks: system.chunkCountByDoc ? [...system.chunkCountByDoc.values()].reduce((a, b) => a + b, 0) : null,
      goldenSet: paths.goldenSetFile,
    },
    inputs: {
      corpusHash,
      goldenSetHash,
      judgePromptsHash: model && judge ? model.judgePromptsHash : null,
    },
    summary: summarise(outcomes, judge?.name ?? null, judgeErrors),
    questions: outcomes,
    calibration: judge ? calibrate(loadHumanLabels(paths.humanLabelsFile), outcomes, paths.humanLabelsFile, judge.name, ledger.scripted) : null,
    gate: null,
    run: {
      startedAt: startedAt.toISOString(),
      durationMs: round4(performance.now() - started),
      latencyMs: {
        retrieve: latency(retrieveTimes),
        // The model stages: the client's API calls (cache hits and replays have no latency); else the stage's wall times.
        generate: latency(model && !options.system ? ledger.latencies('generator') : generateTimes),
        judge: latency(model ? ledger.latencies('judge') : judgeMs),
      },
      usage: ledger.usage(),
      modelCalls: ledger.calls(),
      estimate,
      batches: (model?.client.batches ?? []).map((batch) => ({ ...batch })),
    },
    warnings: model?.warnings() ?? [],
  }
  const baselineDir = options.baselineRoot == null ? null : baselineDirFor(options.baselineRoot, config.mode)
  if (baselineDir !== null) report.gate = evaluateGate(report, readBaseline(baselineDir), baselineDir, config.tolerance)
  return report
}
