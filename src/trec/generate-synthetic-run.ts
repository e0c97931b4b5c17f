import { once } from 'node:events'
import { createWriteStream, type WriteStream } from 'node:fs'
import { mkdir, stat } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { mulberry32 } from '../statistics/seeded-random.ts'

export interface SyntheticRunOptions {
  /** Number of queries (default 10,000). */
  readonly queries?: number
  /** Results per query in the run (default 100). */
  readonly resultsPerQuery?: number
  /** PRNG seed: the same seed always writes byte-identical files (default 20240601). */
  readonly seed?: number
}

export interface SyntheticRunFiles {
  readonly qrelsPath: string
  readonly runPath: string
  readonly queries: number
  readonly runLines: number
  readonly qrelsLines: number
  readonly runBytes: number
}

async function write(stream: WriteStream, chunk: string): Promise<void> {
  if (!stream.write(chunk)) await once(stream, 'drain')
}

async function finish(stream: WriteStream): Promise<void> {
  stream.end()
  await once(stream, 'finish')
}

/** Relevance grade drawn for a judged document: 0 (60%), 1 (25%), 2 (10%), 3 (5%). */
function drawGrade(random: () => number): number {
  const r = random()
  return r < 0.6 ? 0 : r < 0.85 ? 1 : r < 0.95 ? 2 : 3
}

/**
 * Writes a deterministic qrels + run pair to `directory` (files `qrels` and `run`), shaped like a
 * real TREC run: every query has `resultsPerQuery` results with 3-decimal scores (so score ties
 * occur and exercise the docno tie-break), listed by descending score with rank 1..n and tag
 * `synth`. Each query judges 30 retrieved and 10 unretrieved documents with grades 0..3; every
 * 97th query has only rel 0 judgements. Defaults give the benchmark case of `pnpm trec`:
 * 10,000 queries x 100 results, about 33 MB of run.
 */
export async function generateSyntheticRun(directory: string, options: SyntheticRunOptions = {}): Promise<SyntheticRunFiles> {
  const queries = options.queries ?? 10_000
  const resultsPerQuery = options.resultsPerQuery ?? 100
  const random = mulberry32(options.seed ?? 20240601)
  await mkdir(directory, { recursive: true })
  const qrelsPath = join(directory, 'qrels')
  const runPath = join(directory, 'run')
  const qrelsOut = createWriteStream(qrelsPath)
  const runOut = createWriteStream(runPath)
  let qrelsLines = 0

  for (let q = 1; q <= queries; q++) {
    const qid = `q${q}`
    const docnos = new Set<string>()
    while (docnos.size < resultsPerQuery + 10) {
      docnos.add(`D${String(Math.floor(random() * 10_000_000)).padStart(7, '0')}`)
    }
    const pool = [...docnos]
    const retrieved = pool.slice(0, resultsPerQuery).map((docno) => ({ docno, score: Math.floor(random() * 20_000) / 1000 }))
    retrieved.sort((a, b) => b.score - a.score)

    let runChunk = ''
    retrieved.forEach((result, index) => {
      runChunk += `${qid} Q0 ${result.docno} ${index + 1} ${result.score.toFixed(3)} synth\n`
    })
    await write(runOut, runChunk)

    const judged = [...pool.slice(0, Math.min(30, resultsPerQuery)), ...pool.slice(resultsPerQuery)]
    const noneRelevant = q % 97 === 0
    let qrelsChunk = ''
    for (const docno of judged) {
      qrelsChunk += `${qid} 0 ${docno} ${noneRelevant ? 0 : drawGrade(random)}\n`
      qrelsLines++
    }
    await write(qrelsOut, qrelsChunk)
  }

  await Promise.all([finish(qrelsOut), finish(runOut)])
  const runBytes = (await stat(runPath)).size
  return { qrelsPath, runPath, queries, runLines: queries * resultsPerQuery, qrelsLines, runBytes }
}

async function main(): Promise<void> {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      queries: { type: 'string' },
      results: { type: 'string' },
      seed: { type: 'string' },
    },
  })
  const directory = positionals[0]
  if (directory === undefined || positionals.length !== 1) {
    throw new Error('usage: tsx src/trec/generate-synthetic-run.ts [--queries N] [--results N] [--seed N] <directory>')
  }
  const toInt = (text: string | undefined): number | undefined => (text === undefined ? undefined : Number.parseInt(text, 10))
  const files = await generateSyntheticRun(directory, {
    queries: toInt(values.queries),
    resultsPerQuery: toInt(values.results),
    seed: toInt(values.seed),
  })
  process.stdout.write(
    `wrote ${files.runPath} (${files.runLines} lines, ${files.runBytes} bytes) and ${files.qrelsPath} (${files.qrelsLines} lines)\n`,
  )
}

const entry = process.argv[1]
if (entry !== undefined && import.meta.url === pathToFileURL(resolve(entry)).href) {
  main().catch((error: unknown) => {
    process.stderr.write(`generate-synthetic-run: ${error instanceof Error ? error.message : String(error)}\n`)
    process.exitCode = 1
  })
}
