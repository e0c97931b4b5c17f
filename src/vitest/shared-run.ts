import type { CompareResult } from '../compare/comparison-schema.ts'
import type { Report } from '../contract/report-schema.ts'
import type { Shard } from '../run/shard-assignment.ts'
import type { ShardWitness } from '../shard/shard-witness.ts'
import type { RagEvalProjectOptions } from './rag-eval-project.ts'
import { receiveFromChannel } from './evaluation-channel.ts'

/**
 * One Vitest run's evaluation: what its host answers with, what the cases and the reporter receive. The one
 * type between `evaluate()`'s report and a test case (the host's message, evaluation-host.ts, carries it).
 * `R`, the report: the reporter holds it only in watch mode, to diff against the last run (null otherwise:
 * 10,000 outcomes are not parsed in Vitest's main thread for a summary).
 */
export type SharedRun<R extends Report | null = Report> =
  | {
      ok: true
      report: R
      /** How many questions the report holds (the reporter's count when it holds no report). */
      questions: number
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
      /** EVAL_COMPARE=<config>: that config's run (B) against this one (A), or why it could not be made; null without EVAL_COMPARE. */
      comparison:
        | { ok: true; result: CompareResult; /** renderComparison(result, 'text') */ text: string }
        | { ok: false; error: string }
        | null
    }
  | { ok: false; error: string }

/**
 * A measured run as JSON in UTF-8 pieces, the report given as JSON (latest.json's pieces, so a large report is
 * serialised once and never copied into one buffer): how the host sends it.
 */
export function sharedRunJson(run: SharedRun<null> & { ok: true }, reportJson: readonly Uint8Array[]): Uint8Array[] {
  const { report: _, ...rest } = run
  const encoder = new TextEncoder()
  return [encoder.encode('{"report":'), ...reportJson, encoder.encode(`,${JSON.stringify(rest).slice(1)}`)]
}

/** A run made or changed outside the host (vitest -u accepting it, a comparison, a failure), encoded as the host encodes it. */
export function encodeRun(run: SharedRun): Uint8Array[] {
  return [new TextEncoder().encode(JSON.stringify(run))]
}

/** The run the host sent, as an object (vitest -u, EVAL_COMPARE, watch mode's diff). */
export function decodeRun(json: readonly Uint8Array[]): SharedRun {
  return JSON.parse(Buffer.concat(json).toString('utf8')) as SharedRun
}

/** The reporter's view of a run: its report kept only when asked (watch mode's diff). */
export function reporterView(run: SharedRun, keepReport: boolean): SharedRun<Report | null> {
  return run.ok && !keepReport ? { ...run, report: null } : run
}

/** In the main process, each channel's current run, for the reporter (the global setup's and the reporter's module instances differ; the process is one). */
const held: Map<string, Promise<SharedRun<Report | null>>> = ((globalThis as Record<symbol, unknown>)[
  Symbol.for('rag-vitest-eval/reported-runs')
] ??= new Map()) as Map<string, Promise<SharedRun<Report | null>>>

/** The global setup: this run (once finished) is the one the reporter prints for the channel. */
export function holdRun(channel: string, run: Promise<SharedRun<Report | null>>): void {
  held.set(channel, run)
}

/** The reporter: the run behind the channel, once finished; undefined for a channel of another process. */
export function heldRun(channel: string): Promise<SharedRun<Report | null>> | undefined {
  return held.get(channel)
}

const received = new Map<string, Promise<SharedRun>>()

/** The cases: the run the global setup shares over the channel, received once per worker. */
export function receiveRun(provided: { channel: string }): Promise<SharedRun> {
  let run = received.get(provided.channel)
  if (!run) {
    run = receiveFromChannel(provided.channel, 'evaluation').then((json) => JSON.parse(json) as SharedRun)
    received.set(provided.channel, run)
  }
  return run
}

/** The cases: once the run's reports are written, null, or why they are not (the evaluation's thread hands the run over first). */
export async function receiveReportsWritten(provided: { channel: string }): Promise<string | null> {
  return (JSON.parse(await receiveFromChannel(provided.channel, 'reports')) as { error: string | null }).error
}

declare module 'vitest' {
  interface ProvidedContext {
    /** The local channel (evaluation-channel.ts) that answers with this run's SharedRun as JSON. */
    evaluation: { channel: string }
    /** ragEval()'s options, for the global setup. */
    ragEvalOptions: RagEvalProjectOptions
  }
}
