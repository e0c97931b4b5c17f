import type { CompareResult } from '../compare/comparison-schema.ts'
import type { Report } from '../contract/report-schema.ts'
import type { Shard } from '../run/shard-assignment.ts'
import type { ShardWitness } from '../shard/shard-witness.ts'
import type { MeasuredProject } from './evaluate-project.ts'
import type { RagEvalProjectOptions } from './rag-eval-project.ts'
import { receiveFromChannel } from './evaluation-channel.ts'

/**
 * What the eval project's global setup hands every evaluation case (over the channel `provide` names):
 * the one shared run of the Vitest run, compared with the baseline, and how to treat misses.
 */
export type SharedEvaluation =
  | {
      ok: true
      report: Report
      /** renderTerminalSummary(report): what the reporter prints (null for a shard). */
      terminalSummary: string | null
      /** Where this run's reports were written. */
      reportsDir: string
      /** The project's root (the config file's folder): the report's paths are relative to it. */
      projectRoot: string
      /** Root folder of the accepted baselines (one per mode). */
      baselineRoot: string
      /** GATE=1: regressions fail their cases (and so the run). */
      gate: boolean
      /** EVAL_STRICT=1: every miss fails, regressed or not (for browsing in the UI). */
      strict: boolean
      /** The baseline was just rewritten from this run (vitest -u). */
      baselineUpdated: boolean
      /** Accepted with system errors at or under maxSystemErrorRate: the warning naming the questions left out of it. */
      baselineWarning?: string
      /** vitest --shard=i/n: the report holds shard i's questions only; the merge reports and gates the run. */
      shard?: Shard
      /** A shard's witness of the file it wrote, carried in its blob for the merge to check. */
      shardWitness?: ShardWitness
    }
  | { ok: false; error: string }

/** EVAL_COMPARE=<config>: that config's run (B) against the project's (A), or why it could not be made; null without EVAL_COMPARE. */
export type SharedComparison =
  | { ok: true; result: CompareResult; /** renderComparison(result, 'text'), for the cases and the reporter. */ text: string }
  | { ok: false; error: string }
  | null

/** What the cases and the reporter receive from one run of the global setup. */
export interface SharedRun {
  evaluation: SharedEvaluation
  comparison: SharedComparison
}

/** What the eval project provides: the channel (evaluation-channel.ts) that answers with this run's SharedRun as JSON. */
export interface ProvidedEvaluation {
  channel: string
}

/** A SharedEvaluation as JSON in UTF-8 pieces: its one encoding, from the evaluation's host to the cases. */
export type EvaluationJson = readonly Uint8Array[]

/**
 * A SharedRun as the channel sends it, in pieces: the evaluation's JSON as the host sent it (30 MB at 10,000
 * questions, neither parsed and stringified again here nor copied into one buffer).
 */
export function encodeRun(evaluation: EvaluationJson, comparison: SharedComparison): Uint8Array[] {
  const encoder = new TextEncoder()
  return [encoder.encode(`{"comparison":${JSON.stringify(comparison)},"evaluation":`), ...evaluation, encoder.encode('}')]
}

/** An evaluation made or changed here (vitest -u accepting it, a failure), in the encoding the host uses. */
export function encodeEvaluation(evaluation: SharedEvaluation): EvaluationJson {
  return [new TextEncoder().encode(JSON.stringify(evaluation))]
}

/** The evaluation the host sent, as an object (vitest -u, EVAL_COMPARE, watch mode's diff). */
export function decodeEvaluation(evaluation: EvaluationJson): SharedEvaluation {
  return JSON.parse(Buffer.concat(evaluation).toString('utf8')) as SharedEvaluation
}

/**
 * What the reporter prints from: the run's terminal summary and where its reports are, with its report only
 * in watch mode (which diffs each run against the last). The run otherwise stays JSON in Vitest's main
 * thread: 10,000 outcomes are not parsed there for a summary.
 */
export type ReportedEvaluation =
  | { ok: true; reportsDir: string; terminalSummary: string | null; questions: number; shard?: Shard; report: Report | null }
  | { ok: false; error: string }

/** A run as the reporter receives it. */
export interface ReportedRun {
  evaluation: ReportedEvaluation
  comparison: SharedComparison
}

/** The reporter's view of a measured run of `questions` questions (`report`: kept when at hand, for watch mode's diff). */
export function reportedRun(
  run: { reportsDir: string; terminalSummary: string | null; shard?: Shard },
  questions: number,
  report: Report | null,
): ReportedEvaluation {
  const { reportsDir, terminalSummary, shard } = run
  return { ok: true, reportsDir, terminalSummary, questions, ...(shard ? { shard } : {}), report }
}

/** The reporter's view of an evaluation at hand. */
export function reportedEvaluation(evaluation: SharedEvaluation, report: Report | null): ReportedEvaluation {
  return evaluation.ok ? reportedRun(evaluation, evaluation.report.questions.length, report) : evaluation
}

/** In the main process, each channel's current run, for the reporter (the global setup's and the reporter's module instances differ; the process is one). */
const held: Map<string, Promise<ReportedRun>> = ((globalThis as Record<symbol, unknown>)[
  Symbol.for('rag-vitest-eval/reported-runs')
] ??= new Map()) as Map<string, Promise<ReportedRun>>

/** The global setup: this run (once finished) is the one the reporter prints for the channel. */
export function holdRun(channel: string, run: Promise<ReportedRun>): void {
  held.set(channel, run)
}

/** The reporter: the run behind the channel, once finished; undefined for a channel of another process. */
export function heldRun(channel: string): Promise<ReportedRun> | undefined {
  return held.get(channel)
}

const received = new Map<string, Promise<SharedRun>>()

/** The cases: the run the global setup shares over the channel, received once per worker. */
export function receiveRun(provided: ProvidedEvaluation): Promise<SharedRun> {
  let run = received.get(provided.channel)
  if (!run) {
    run = receiveFromChannel(provided.channel, 'evaluation').then((json) => JSON.parse(json) as SharedRun)
    received.set(provided.channel, run)
  }
  return run
}

/** The cases: once the run's reports are written, null, or why they are not (the evaluation's thread hands the run over first). */
export async function receiveReportsWritten(provided: ProvidedEvaluation): Promise<string | null> {
  return (JSON.parse(await receiveFromChannel(provided.channel, 'reports')) as { error: string | null }).error
}

declare module 'vitest' {
  interface ProvidedContext {
    evaluation: ProvidedEvaluation
    /** ragEval()'s options, for the global setup. */
    ragEvalOptions: RagEvalProjectOptions
  }
}

/**
 * This Vitest run's conditions for the cases: GATE=1 fails on regressions (never in a shard: its questions are a
 * part of the golden set; the merge gates the whole), EVAL_STRICT=1 fails on every miss.
 */
function runConditions(options: RagEvalProjectOptions) {
  return {
    gate: process.env.GATE === '1' && !options.shard,
    strict: process.env.EVAL_STRICT === '1',
    baselineUpdated: false,
    ...(options.shard ? { shard: options.shard } : {}),
  }
}

/**
 * sharedEvaluation as JSON (UTF-8, in pieces to be sent one after the other), the report given as JSON
 * (latest.json's pieces, so a large report is serialised once and never copied into one buffer).
 */
export function sharedEvaluationJson(
  evaluation: MeasuredProject['evaluation'],
  reportJson: readonly Uint8Array[],
  options: RagEvalProjectOptions,
): Uint8Array[] {
  const rest = JSON.stringify({ ok: true, ...evaluation, ...runConditions(options) })
  const encoder = new TextEncoder()
  return [encoder.encode('{"report":'), ...reportJson, encoder.encode(`,${rest.slice(1)}`)]
}
