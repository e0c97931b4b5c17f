import { displayId } from './byte-string'
import { TrecError } from './errors'
import { splitFields } from './fields'
import { forEachLine, forEachTextLine } from './read-lines'

/** One retrieved document of a query, as read from the run (unordered). */
export interface RunResult {
  readonly docno: string
  readonly score: number
}

/** Run: qid -> retrieved documents in file order (see rank.ts for trec_eval's ordering). */
export type Run = ReadonlyMap<string, readonly RunResult[]>

const DECIMAL = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/
const INFINITY = /^([+-]?)inf(?:inity)?$/i

/** Parses a run score the way C `atof` accepts well-formed input (decimal or inf); undefined otherwise. */
function parseScore(text: string): number | undefined {
  if (DECIMAL.test(text)) return Number(text)
  const infinity = INFINITY.exec(text)
  if (infinity !== null) return infinity[1] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY
  return undefined
}

interface QueryBucket {
  readonly results: RunResult[]
  readonly docnos: Set<string>
}

/**
 * Accumulates run lines `qid Q0 docno rank score tag`; Q0, rank and tag are ignored (trec_eval ranks by score),
 * blank lines skipped. Errors name file and line: field count, a non-numeric score, a docno retrieved twice.
 */
export class RunBuilder {
  readonly #source: string
  readonly #byQuery = new Map<string, QueryBucket>()
  #lastQid: string | undefined
  #lastBucket: QueryBucket | undefined

  constructor(source: string) {
    this.#source = source
  }

  addLine(line: string, lineNumber: number): void {
    const fields = splitFields(line)
    if (fields.length === 0) return
    if (fields.length !== 6) {
      throw new TrecError(
        `${this.#source}:${lineNumber}: expected 6 whitespace-separated fields "qid Q0 docno rank score tag", found ${fields.length}`,
      )
    }
    const qid = fields[0]!
    const docno = fields[2]!
    const scoreText = fields[4]!
    const score = parseScore(scoreText)
    if (score === undefined) {
      throw new TrecError(
        `${this.#source}:${lineNumber}: score ${displayId(scoreText)} is not a number (expected a decimal such as 12.5 or -3e-2)`,
      )
    }
    let bucket = qid === this.#lastQid ? this.#lastBucket : this.#byQuery.get(qid)
    if (bucket === undefined) {
      bucket = { results: [], docnos: new Set<string>() }
      this.#byQuery.set(qid, bucket)
    }
    this.#lastQid = qid
    this.#lastBucket = bucket
    if (bucket.docnos.has(docno)) {
      throw new TrecError(
        `${this.#source}:${lineNumber}: duplicate docno ${displayId(docno)} for query ${displayId(qid)} ` +
          `(trec_eval rejects a document retrieved twice for one query)`,
      )
    }
    bucket.docnos.add(docno)
    bucket.results.push({ docno, score })
  }

  build(): Run {
    const run = new Map<string, readonly RunResult[]>()
    for (const [qid, bucket] of this.#byQuery) run.set(qid, bucket.results)
    return run
  }
}

/** Reads a run file, streaming it line by line. */
export async function readRun(path: string): Promise<Run> {
  const builder = new RunBuilder(path)
  await forEachLine(path, 'run', (line, lineNumber) => builder.addLine(line, lineNumber))
  return builder.build()
}

/** Parses a run held in memory (tests, small inputs). `source` names it in error messages. */
export function parseRun(text: string, source = '<run>'): Run {
  const builder = new RunBuilder(source)
  forEachTextLine(text, (line, lineNumber) => builder.addLine(line, lineNumber))
  return builder.build()
}
