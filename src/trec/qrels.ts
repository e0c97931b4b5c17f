import { displayId } from './byte-string'
import { TrecError } from './errors'
import { splitFields } from './fields'
import { forEachLine, forEachTextLine } from './read-lines'

/** Judgements: qid -> (docno -> rel). rel is the raw integer grade; >= 1 means relevant. */
export type Qrels = ReadonlyMap<string, ReadonlyMap<string, number>>

const INTEGER = /^[+-]?\d+$/

/**
 * Accumulates qrels lines `qid iter docno rel` (`iter` ignored, blank lines skipped). Errors name file and line:
 * field count, a non-integer rel, a docno judged twice for one query.
 */
export class QrelsBuilder {
  readonly #source: string
  readonly #byQuery = new Map<string, Map<string, number>>()
  #lastQid: string | undefined
  #lastJudgements: Map<string, number> | undefined

  constructor(source: string) {
    this.#source = source
  }

  addLine(line: string, lineNumber: number): void {
    const fields = splitFields(line)
    if (fields.length === 0) return
    if (fields.length !== 4) {
      throw new TrecError(
        `${this.#source}:${lineNumber}: expected 4 whitespace-separated fields "qid iter docno rel", found ${fields.length}`,
      )
    }
    const qid = fields[0]!
    const docno = fields[2]!
    const relText = fields[3]!
    if (!INTEGER.test(relText)) {
      throw new TrecError(
        `${this.#source}:${lineNumber}: rel ${displayId(relText)} is not an integer (expected a relevance grade such as -1, 0, 1, 2)`,
      )
    }
    let judgements = qid === this.#lastQid ? this.#lastJudgements : this.#byQuery.get(qid)
    if (judgements === undefined) {
      judgements = new Map<string, number>()
      this.#byQuery.set(qid, judgements)
    }
    this.#lastQid = qid
    this.#lastJudgements = judgements
    if (judgements.has(docno)) {
      throw new TrecError(`${this.#source}:${lineNumber}: docno ${displayId(docno)} is judged twice for query ${displayId(qid)}`)
    }
    judgements.set(docno, Number(relText))
  }

  build(): Qrels {
    return this.#byQuery
  }
}

/** Reads a qrels file, streaming it line by line. */
export async function readQrels(path: string): Promise<Qrels> {
  const builder = new QrelsBuilder(path)
  await forEachLine(path, 'qrels', (line, lineNumber) => builder.addLine(line, lineNumber))
  return builder.build()
}

/** Parses qrels held in memory (tests, small inputs). `source` names it in error messages. */
export function parseQrels(text: string, source = '<qrels>'): Qrels {
  const builder = new QrelsBuilder(source)
  forEachTextLine(text, (line, lineNumber) => builder.addLine(line, lineNumber))
  return builder.build()
}
