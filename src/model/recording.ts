import { existsSync, mkdirSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { z } from 'zod'
import { InputError } from '../contract/input-error.ts'
import { readJsonFile } from '../files/read-json-file.ts'
import { writeFileAtomic } from '../files/write-file-atomic.ts'
import { StoredExchangeSchema, describePartsChange, type CallParts, type StoredExchange } from './exchange.ts'

/**
 * A recording (layout: README.md, "Record and replay"). Nothing in a recording is a credential: requests are stored
 * only as hashes, and the server is named without its userinfo.
 */
export const RecordingMetadataSchema = z
  .object({
    schemaVersion: z.literal(1),
    name: z.string(),
    /** False while a record run is under way (or if it died): replay refuses an incomplete recording. */
    complete: z.boolean(),
    /** True when the responses came from a scripted server, not a model: its numbers say nothing about Claude. */
    scripted: z.boolean(),
    server: z.string(),
    recordedAt: z.string(),
    models: z.object({ generator: z.string(), judge: z.string() }).strict(),
    judgePromptsHash: z.string(),
    goldenSetHash: z.string(),
    corpusHash: z.string(),
    sdkVersion: z.string(),
    /** The golden questions the recording answers. */
    questions: z.array(z.string()),
    exchanges: z.number().int().min(0),
    note: z.string(),
  })
  .strict()
export type RecordingMetadata = z.infer<typeof RecordingMetadataSchema>

const ExchangeFileSchema = z
  .object({ schemaVersion: z.literal(1), subject: z.string(), exchanges: z.array(StoredExchangeSchema) })
  .strict()

const METADATA = 'metadata.json'
const EXCHANGES = 'exchanges'

/** A subject (question id) as a file name. */
function fileOf(subject: string): string {
  return `${subject.replace(/[^A-Za-z0-9._-]/g, '_')}.json`
}

function byOrder(a: StoredExchange, b: StoredExchange): number {
  return a.purpose < b.purpose
    ? -1
    : a.purpose > b.purpose
      ? 1
      : a.parts.sample - b.parts.sample || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0)
}

export function recordingDir(recordingsDir: string, name: string): string {
  return join(recordingsDir, name)
}

/** A record run's hidden working folder; no recording can have this name, and replay never reads it. */
export function partialRecordingDir(dir: string): string {
  return join(dirname(dir), `.${basename(dir)}.partial`)
}

/** Where the previous recording waits during the swap (two renames): replay reads it if a run died between them. */
export function previousRecordingDir(dir: string): string {
  return join(dirname(dir), `.${basename(dir)}.previous`)
}

/** Writes each exchange as it arrives, in the partial folder; only finish() swaps it in, so a stopped run leaves the old one. */
export class RecordingWriter {
  readonly #dir: string
  readonly #partial: string
  readonly #bySubject = new Map<string, Map<string, StoredExchange>>()
  #started = false

  constructor(dir: string) {
    this.#dir = dir
    this.#partial = partialRecordingDir(dir)
  }

  /** Starts afresh in the partial folder (what a killed run left there goes); the metadata says incomplete until finish(). */
  start(metadata: Omit<RecordingMetadata, 'complete' | 'questions' | 'exchanges'>): void {
    rmSync(this.#partial, { recursive: true, force: true })
    mkdirSync(join(this.#partial, EXCHANGES), { recursive: true })
    this.#writeMetadata({ ...metadata, complete: false, questions: [], exchanges: 0 })
    this.#started = true
  }

  /** Saves an exchange (a scripted server's latency means nothing: kept as 0, so a re-recording diffs only where outputs changed). */
  put(received: StoredExchange): void {
    if (!this.#started) throw new Error('RecordingWriter.put before start()')
    const exchange = received.scripted ? { ...received, latencyMs: 0 } : received
    let exchanges = this.#bySubject.get(exchange.subject)
    if (!exchanges) this.#bySubject.set(exchange.subject, (exchanges = new Map<string, StoredExchange>()))
    exchanges.set(exchange.key, exchange)
    const file = { schemaVersion: 1, subject: exchange.subject, exchanges: [...exchanges.values()].sort(byOrder) }
    writeFileAtomic(join(this.#partial, EXCHANGES, fileOf(exchange.subject)), JSON.stringify(file, null, 2) + '\n')
  }

  /** True when any response came from a scripted server. */
  get scripted(): boolean {
    return [...this.#bySubject.values()].some((map) => [...map.values()].some((e) => e.scripted))
  }

  /** Completes the recording and swaps it in for the previous one. */
  finish(metadata: Omit<RecordingMetadata, 'complete' | 'exchanges'>): RecordingMetadata {
    const exchanges = [...this.#bySubject.values()].reduce((sum, map) => sum + map.size, 0)
    const complete: RecordingMetadata = { ...metadata, complete: true, exchanges }
    this.#writeMetadata(complete)
    // A folder cannot be renamed over a non-empty one: the old one steps aside first, and goes once the new one is in.
    const previous = previousRecordingDir(this.#dir)
    rmSync(previous, { recursive: true, force: true })
    if (existsSync(this.#dir)) renameSync(this.#dir, previous)
    renameSync(this.#partial, this.#dir)
    rmSync(previous, { recursive: true, force: true })
    return complete
  }

  #writeMetadata(metadata: RecordingMetadata): void {
    writeFileAtomic(join(this.#partial, METADATA), JSON.stringify(RecordingMetadataSchema.parse(metadata), null, 2) + '\n')
  }
}

/** A recording loaded for replay. */
export class RecordingReader {
  readonly #byKey = new Map<string, StoredExchange>()
  readonly #bySubject = new Map<string, StoredExchange[]>()

  private constructor(
    readonly dir: string,
    readonly metadata: RecordingMetadata,
    exchanges: StoredExchange[],
  ) {
    for (const exchange of exchanges) {
      this.#byKey.set(exchange.key, exchange)
      const list = this.#bySubject.get(exchange.subject) ?? []
      list.push(exchange)
      this.#bySubject.set(exchange.subject, list)
    }
  }

  /**
   * Loads and validates a recording (else an InputError saying how to make it). A record run killed between its two
   * renames left the last complete recording aside: it is read from there.
   */
  static load(recording: string, howToRecord: string): RecordingReader {
    const aside = previousRecordingDir(recording)
    const dir = !existsSync(join(recording, METADATA)) && existsSync(join(aside, METADATA)) ? aside : recording
    const metadataFile = join(dir, METADATA)
    if (!existsSync(metadataFile)) throw new InputError(`replay: no recording at ${dir} (${METADATA} missing); ${howToRecord}`)
    const metadata = readJsonFile(metadataFile, RecordingMetadataSchema, howToRecord)
    if (!metadata.complete)
      throw new InputError(`replay: the recording at ${dir} is incomplete (its record run did not finish); ${howToRecord}`)
    const exchangesDir = join(dir, EXCHANGES)
    const files = existsSync(exchangesDir)
      ? readdirSync(exchangesDir)
          .filter((f) => f.endsWith('.json'))
          .sort()
      : []
    const exchanges: StoredExchange[] = []
    for (const file of files) {
      exchanges.push(...readJsonFile(join(exchangesDir, file), ExchangeFileSchema, howToRecord).exchanges)
    }
    return new RecordingReader(dir, metadata, exchanges)
  }

  get(key: string): StoredExchange | null {
    return this.#byKey.get(key) ?? null
  }

  /** Why a call is not in the recording: nothing recorded for its question, or what changed since. */
  explainMiss(subject: string, purpose: string, parts: CallParts): string {
    const recorded = this.#bySubject.get(subject)
    if (!recorded || recorded.length === 0) return `nothing was recorded for ${subject}`
    const same = recorded.filter((e) => e.purpose === purpose)
    if (same.length === 0) return `${subject} was recorded without a ${purpose} call`
    return (
      `it differs from the recorded ${purpose} call ` +
      `of ${subject}: ${describePartsChange(parts, same[0]!.parts) || 'unknown difference'}`
    )
  }
}
