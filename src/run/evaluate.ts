import { join } from 'node:path/posix'
import { loadEvalConfig, type EvalConfig } from '../config/eval-config.ts'
import { loadCorpus } from '../load/corpus.ts'
import { loadGoldenSet } from '../load/golden-set.ts'
import { contentHash } from '../load/content-hash.ts'
import { readBaseline } from '../gate/baseline-files.ts'
import { evaluateGate } from '../gate/gate.ts'
import { InputError } from '../load/input-error.ts'
import type { Report } from '../report/report-schema.ts'
import { scoreRetrieval } from '../scoring/score-retrieval.ts'
import { percentile, round4 } from '../summary/statistics.ts'
import { summarise } from '../summary/summarise.ts'
import { createBuiltinSystem } from '../system/builtin-system.ts'
import { runSystem } from './run-system.ts'

export interface EvaluationPaths {
  corpusDir: string
  goldenSetFile: string
  configFile: string
}

/** The repository's own inputs, relative to a project root. */
export function defaultPaths(root: string): EvaluationPaths {
  return {
    corpusDir: join(root, 'corpus'),
    goldenSetFile: join(root, 'evals', 'golden-set.json'),
    configFile: join(root, 'evals', 'eval.config.json'),
  }
}

export interface EvaluateOptions {
  tier: Report['tier']
  env?: NodeJS.ProcessEnv
  /** Clock, injectable so tests can pin `run`. */
  now?: () => Date
  /** Folder of the accepted baseline to gate against; null to skip the comparison. */
  baselineDir?: string | null
}

/**
 * The whole evaluation: load and validate inputs, run the built-in system on every question, score,
 * summarise and build the report. Everything but `run` is a pure function of the inputs and config.
 */
export async function evaluate(paths: EvaluationPaths, options: EvaluateOptions): Promise<Report> {
  const now = options.now ?? (() => new Date())
  const startedAt = now()
  const started = performance.now()
  const config: EvalConfig = loadEvalConfig(paths.configFile, options.env ?? process.env)
  if (config.mode !== 'offline') {
    throw new InputError(`EVAL_MODE=${config.mode}: only the offline mode is available in this version`)
  }
  const corpus = loadCorpus(paths.corpusDir)
  const questions = loadGoldenSet(paths.goldenSetFile, corpus)
  const system = createBuiltinSystem(corpus, config)
  const runs = await runSystem(system, questions, config.concurrency)
  const outcomes = runs.map((run) => scoreRetrieval(run.question, run.output, system.chunkCountByDoc, config.k))
  const retrieveTimes = runs.map((run) => run.retrieveMs)
  const report: Report = {
    schemaVersion: 1,
    tier: options.tier,
    config: { ...config, system: system.name },
    corpus: { documents: corpus.length, chunks: system.chunks.length, goldenSet: paths.goldenSetFile },
    inputs: {
      corpusHash: contentHash(corpus.flatMap((doc) => [doc.id, doc.title, doc.updated, doc.body])),
      goldenSetHash: contentHash([JSON.stringify(questions)]),
      judgePromptsHash: null,
    },
    summary: summarise(outcomes),
    questions: outcomes,
    gate: null,
    run: {
      startedAt: startedAt.toISOString(),
      durationMs: round4(performance.now() - started),
      latencyMs: {
        retrieve: { p50: round4(percentile(retrieveTimes, 50) ?? 0), p95: round4(percentile(retrieveTimes, 95) ?? 0) },
        generate: null,
        judge: null,
      },
      usage: { inputTokens: 0, outputTokens: 0, cacheHits: 0, usd: 0 },
    },
  }
  const baselineDir = options.baselineDir ?? null
  if (baselineDir !== null) report.gate = evaluateGate(report, readBaseline(baselineDir), baselineDir, config.tolerance)
  return report
}
