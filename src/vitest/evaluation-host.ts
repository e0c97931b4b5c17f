import { fork, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { fileURLToPath } from 'node:url'
import type { Worker } from 'node:worker_threads'
import type { RagEvalProjectOptions } from './rag-eval-project.ts'
import type { Report } from '../contract/report-schema.ts'
import { encodeRun, type SharedRun } from './shared-run.ts'
import { ownModuleThread } from '../threads/own-module-thread.ts'
import { threadBundle } from '../threads/thread-bundle.ts'

/**
 * Where an evaluation runs. A worker thread of Vitest's process for offline and replay `vitest run`s
 * (nothing paid for can be in flight, and a fresh thread measures the current code; Vitest's main thread
 * stays free to serve the cases' worker). A child process for live and record runs (a Vitest killed
 * mid-run, SIGKILL included, closes the IPC channel: the child lets the paid calls in flight land in the
 * cache, then exits), for watch mode (a fresh process per rerun), and whenever the mode is not known
 * before the evaluation loads (the child is safe for every mode).
 */
export type EvaluationHostKind = 'thread' | 'child'

/** The run's mode as known before anything loads ('unknown': the config could not be read here). */
export type DeclaredMode = 'offline' | 'replay' | 'record' | 'live' | 'unknown'

/** The one place that decides thread or child process. */
export function chooseEvaluationHost(run: { watch: boolean; mode: DeclaredMode }): EvaluationHostKind {
  return !run.watch && (run.mode === 'offline' || run.mode === 'replay') ? 'thread' : 'child'
}

/** What the host is asked (a message, whatever the host): which project, and whether it is the B side of EVAL_COMPARE. */
export interface EvaluationRequest {
  /** Tags the answer: an answer for another run is refused. */
  runId: string
  options: RagEvalProjectOptions
  /** 'compare': measured only (no baseline, no reports written). */
  role: 'run' | 'compare'
}

/**
 * What the host answers, in a thread or a child alike: the run as JSON in UTF-8 pieces (latest.json's bytes
 * inside, serialised once), with the reporter's view of it (no report), as soon as it is measured; then, when
 * it writes the run's reports (`writing`), whether that worked.
 */
export type EvaluationHostMessage =
  | { kind: 'evaluated'; runId: string; json: readonly Uint8Array[]; reported: SharedRun<null>; writing: boolean }
  | { kind: 'reports'; runId: string; error: string | null }

const EXT = import.meta.url.endsWith('.ts') ? 'ts' : 'js'
/** The one entry module of every host. */
export const EVALUATION_HOST_MAIN = fileURLToPath(new URL(`./evaluation-host-main.${EXT}`, import.meta.url))

/** A started host: it loads the evaluation's modules at once and evaluates when asked (once). */
export interface EvaluationHost {
  readonly kind: EvaluationHostKind
  /**
   * The run, handed over before its reports are written: `reportsWritten` settles with null once they are, or
   * why they are not.
   */
  evaluate(request: Omit<EvaluationRequest, 'runId'>): Promise<{
    json: readonly Uint8Array[]
    reported: SharedRun<Report | null>
    reportsWritten: Promise<string | null>
  }>
  /** Stops a host no run asked. */
  discard(): Promise<void>
}

/** What either host looks like to the launcher. */
interface Transport {
  send(request: EvaluationRequest): void
  onMessage(listener: (message: unknown) => void): void
  /** Called once: the host ended (code, signal) or could not start; `detail`, what it said on the way. */
  onEnd(listener: (how: string) => void): void
  /** Holds Vitest open while a run waits on it (a prewarmed host does not). */
  hold(held: boolean): void
  stop(): Promise<void>
}

function threadTransport(entry: string): Transport {
  const worker: Worker = ownModuleThread(entry)
  let failure: string | null = null
  let ended: string | null = null
  const endListeners: ((how: string) => void)[] = []
  worker.on('error', (error) => (failure = error.stack ?? error.message))
  worker.on('exit', (code) => {
    ended = `the evaluation's thread ${failure === null ? `exited with code ${code}` : `failed: ${failure}`}`
    for (const listener of endListeners) listener(ended)
  })
  return {
    send: (request) => worker.postMessage(request),
    onMessage: (listener) => worker.on('message', listener),
    onEnd: (listener) => (ended === null ? endListeners.push(listener) : listener(ended)),
    hold: (held) => (held ? worker.ref() : worker.unref()),
    stop: async () => void (await worker.terminate()),
  }
}

function childTransport(entry: string): Transport {
  // The bundle when there is one (thread-bundle.ts: it runs in a child as well), else the module itself.
  const file = threadBundle(entry) ?? entry
  const child: ChildProcess = fork(file, [], {
    execArgv: file.endsWith('.ts') ? ['--import', 'tsx'] : [],
    // Structured clone: the report's JSON pieces travel as bytes, as they do to a thread.
    serialization: 'advanced',
    // Progress lines (a live run's cost estimate, batch polls) show as they come; stderr is kept for the failure message.
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  })
  let stderr = ''
  child.stderr?.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-8000)))
  let ended: string | null = null
  const endListeners: ((how: string) => void)[] = []
  const end = (how: string) => {
    if (ended !== null) return
    const detail = stderr.trim() ? `: ${stderr.trim()}` : ''
    ended = `${how}${detail}`
    for (const listener of endListeners) listener(ended)
  }
  child.on('error', (error) => end(`the evaluation could not start: ${error.message}`))
  // 'close': stderr has been read to its end.
  child.on('close', (code, signal) => end(`the evaluation ${signal ? `was killed by ${signal}` : `exited with code ${code}`}`))
  // Vitest stopped by a signal: the child stops too (it also notices the closed channel when Vitest is killed outright).
  const forward = (signal: NodeJS.Signals) => () => child.kill(signal)
  const onTerm = forward('SIGTERM')
  const onInt = forward('SIGINT')
  return {
    send: (request) => child.send(request),
    onMessage: (listener) => child.on('message', listener),
    onEnd: (listener) => (ended === null ? endListeners.push(listener) : listener(ended)),
    hold: (held) => {
      if (held) {
        child.ref()
        child.channel?.ref()
        process.once('SIGTERM', onTerm)
        process.once('SIGINT', onInt)
        endListeners.push(() => {
          process.removeListener('SIGTERM', onTerm)
          process.removeListener('SIGINT', onInt)
        })
      } else {
        child.unref()
        child.channel?.unref()
      }
    },
    stop: async () => {
      if (ended !== null) return
      const closed = new Promise<void>((resolve) => child.once('close', () => resolve()))
      child.kill('SIGTERM')
      await closed
    },
  }
}

/**
 * Starts a host of the kind given (chooseEvaluationHost's answer), which loads the evaluation's modules at
 * once: started while Vitest starts up, it is ready when the global setup asks. Unreferenced until asked,
 * so a run that never evaluates (a file filter leaving out the eval project's cases) is not held open.
 */
export function startEvaluationHost(kind: EvaluationHostKind, entry: string = EVALUATION_HOST_MAIN): EvaluationHost {
  const transport = kind === 'thread' ? threadTransport(entry) : childTransport(entry)
  transport.hold(false)
  return {
    kind,
    discard: () => transport.stop(),
    evaluate: (request) => {
      const runId = randomUUID()
      transport.hold(true)
      return new Promise((resolve) => {
        let reports: (error: string | null) => void = () => {}
        const reportsWritten = new Promise<string | null>((settle) => (reports = settle))
        const fail = (error: string) => {
          // Each settles once: whatever the host already said stands.
          const failed = { ok: false as const, error }
          resolve({
            json: encodeRun(failed),
            reported: failed,
            reportsWritten: Promise.resolve(null),
          })
        }
        transport.onMessage((raw) => {
          const message = raw as EvaluationHostMessage
          if (message.runId !== runId)
            return fail(`the evaluation's ${kind} answered for run ${String(message.runId)}, not this run ${runId}`)
          if (message.kind === 'reports') return reports(message.error)
          if (!message.writing) reports(null)
          resolve({ json: message.json, reported: message.reported, reportsWritten })
        })
        transport.onEnd((how) => {
          fail(`${how} without sending its evaluation`)
          reports(`the reports were not written: ${how}`)
        })
        transport.send({ ...request, runId })
      })
    },
  }
}

/** Process-wide (Vitest's config, which decides and starts the host, and the global setup, which asks it, are different module instances). */
interface Decided {
  kind: EvaluationHostKind
  prewarmed: EvaluationHost | null
}
const REGISTRY = Symbol.for('rag-vitest-eval/evaluation-hosts')
const decided = ((globalThis as Record<symbol, unknown>)[REGISTRY] ??= new Map()) as Map<string, Decided>

/** The eval project's plugin: this project's runs are hosted by `kind`, and the first one's host starts now. */
export function prewarmEvaluationHost(project: string, kind: EvaluationHostKind): void {
  if (decided.get(project)?.prewarmed) return
  decided.set(project, { kind, prewarmed: startEvaluationHost(kind) })
}

/** Stops a prewarmed host no run took (Vitest closing). */
export async function discardPrewarmedHost(project: string): Promise<void> {
  const entry = decided.get(project)
  const host = entry?.prewarmed
  if (entry) entry.prewarmed = null
  await host?.discard()
}

/**
 * The global setup: the host for this run of the project, the prewarmed one if any, else a fresh one of the kind decided
 * (each watch-mode rerun gets a fresh one, so it measures the current code).
 */
export function takeEvaluationHost(project: string, watch: boolean): EvaluationHost {
  const entry = decided.get(project)
  const host = entry?.prewarmed
  if (entry && host) {
    entry.prewarmed = null
    return host
  }
  return startEvaluationHost(entry?.kind ?? chooseEvaluationHost({ watch, mode: 'unknown' }))
}
