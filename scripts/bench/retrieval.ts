import { fork } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { countWords, generateSyntheticCorpus } from '../../src/testing/synthetic-corpus.ts'
import { runKnobs, type ProjectConfig } from '../../src/config/project-config.ts'
import { formatTable } from '../../src/common/format-table.ts'
import { evaluate } from '../../src/run/evaluate.ts'
import { runSystem } from '../../src/run/run-system.ts'
import { scoreRetrieval } from '../../src/scoring/score-retrieval.ts'
import { percentile } from '../../src/statistics/descriptive.ts'
import { summarise } from '../../src/summary/summarise.ts'
import { createBuiltinSystem } from '../../src/builtin/builtin-system.ts'
import { integer, kind, positiveNumber } from '../../src/cli/arg-kinds.ts'
import { InputError } from '../../src/contract/input-error.ts'
import { flag, option } from '../../src/cli/args.ts'
import { projectWith } from '../../src/cli/cli-project.ts'
import { defineCommand } from '../../src/cli/command.ts'
import { runBench } from './run-bench.ts'

interface Size {
  documents: number
  questions: number
}

interface SizeResult extends Size {
  seed: number
  chunks: number
  words: number
  generateMs: number
  buildMs: number
  retrieveWallMs: number
  latencyP50Ms: number
  latencyP95Ms: number
  metricsMs: number
  totalMs: number
  startRssMb: number
  peakRssMb: number
  recall: number | null
  mrr: number | null
}

interface RepoResult {
  firstMs: number
  warmMs: number[]
  documents: number
  chunks: number | null
  questions: number
  peakRssMb: number
}

type ChildMessage = { size: SizeResult } | { repo: RepoResult }

const mb = (kb: number) => kb / 1024
const peakRssMb = () => mb(process.resourceUsage().maxRSS)

/** docs:questions pairs, e.g. 5000:1000,10000:2000; at least 3 documents each. */
const sizesKind = kind<Size[]>('docs:questions pairs, e.g. 5000:1000,10000:2000 (at least 3 docs each)', (text) =>
  text.split(',').map((part) => {
    const match = /^\s*(\d+):(\d+)\s*$/.exec(part)
    const size = match ? { documents: Number(match[1]), questions: Number(match[2]) } : null
    if (size === null || size.documents < 3) throw new InputError(`expected ${sizesKind.expected}`)
    return size
  }),
)

/** One size: the pipeline evaluate() runs, on an in-memory synthetic corpus, stage by stage. */
async function measureSize(size: Size, seed: number, project: ProjectConfig): Promise<SizeResult> {
  const config = runKnobs(project, process.env)
  const startRssMb = mb(process.memoryUsage().rss / 1024)

  const generateStarted = performance.now()
  const { documents, questions } = generateSyntheticCorpus({ seed, ...size })
  const generateMs = performance.now() - generateStarted
  let words = 0
  for (const doc of documents) words += countWords(doc.body)

  const buildStarted = performance.now()
  const system = createBuiltinSystem(documents, { ...config, generate: false })
  const buildMs = performance.now() - buildStarted

  const retrieveStarted = performance.now()
  const runs = await runSystem(system, questions, config.concurrency)
  const retrieveWallMs = performance.now() - retrieveStarted
  const latencies = runs.map((run) => run.retrieveMs)

  const metricsStarted = performance.now()
  const outcomes = runs.map((run) => scoreRetrieval(run.question, run.output, system.chunkCountByDoc, config))
  const summary = summarise(outcomes)
  const metricsMs = performance.now() - metricsStarted

  return {
    ...size,
    seed,
    chunks: system.chunks.length,
    words,
    generateMs,
    buildMs,
    retrieveWallMs,
    latencyP50Ms: percentile(latencies, 50) ?? 0,
    latencyP95Ms: percentile(latencies, 95) ?? 0,
    metricsMs,
    totalMs: buildMs + retrieveWallMs + metricsMs,
    startRssMb,
    peakRssMb: peakRssMb(),
    recall: summary.recall,
    mrr: summary.mrr,
  }
}

/** The repository's own retrieval tier, in-process: a first (cold) call, then `warmRuns` more. */
async function measureRepo(warmRuns: number, project: ProjectConfig): Promise<RepoResult> {
  const time = async () => {
    const started = performance.now()
    const report = await evaluate(project, { tier: 'retrieval' })
    return { ms: performance.now() - started, report }
  }
  const first = await time()
  const warmMs: number[] = []
  for (let i = 0; i < warmRuns; i++) warmMs.push((await time()).ms)
  return {
    firstMs: first.ms,
    warmMs,
    documents: first.report.corpus.documents ?? 0,
    chunks: first.report.corpus.chunks,
    questions: first.report.questions.length,
    peakRssMb: peakRssMb(),
  }
}

/** Runs this script (`[--config file] <args>`) in a fresh Node process (the same loader flags) and returns its result. */
function inChild(config: string | undefined, args: string[]): Promise<ChildMessage> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [...(config === undefined ? [] : ['--config', config]), ...args], {
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    })
    let message: ChildMessage | undefined
    child.on('message', (m) => (message = m as ChildMessage))
    child.on('error', reject)
    child.on('exit', (code, signal) => {
      if (message && code === 0) resolve(message)
      else reject(new Error(`benchmark process ${args.join(' ')} failed (${signal ?? `exit ${code}`})`))
    })
  })
}

function sendToParent(message: ChildMessage): Promise<void> {
  return new Promise((resolve, reject) => process.send!(message, (error: Error | null) => (error ? reject(error) : resolve())))
}

// ---------------------------------------------------------------------------------------------------
// Output

const int = (n: number) => Math.round(n).toLocaleString('en-US')
const ms = (n: number) => `${n.toFixed(n < 10 ? 2 : 1)} ms`
const s = (milliseconds: number) => `${(milliseconds / 1000).toFixed(2)} s`
const ratio = (a: number, b: number) => (a > 0 ? `x${(b / a).toFixed(2)}` : 'n/a')
const metric = (n: number | null) => (n === null ? 'n/a' : n.toFixed(4))

function sizeTable(results: readonly SizeResult[]): string {
  const first = results[0]!
  const last = results[results.length - 1]!
  const growing = results.length > 1
  type Row = [label: string, value: (r: SizeResult) => number, show: (n: number) => string, growth: boolean]
  const rows: Row[] = [
    ['documents', (r) => r.documents, int, true],
    ['questions', (r) => r.questions, int, true],
    ['corpus words', (r) => r.words, int, true],
    ['chunks', (r) => r.chunks, int, true],
    ['generate corpus (not in total)', (r) => r.generateMs, s, true],
    ['chunking + index build', (r) => r.buildMs, s, true],
    ['retrieval, all questions (wall)', (r) => r.retrieveWallMs, s, true],
    ['retrieval latency p50', (r) => r.latencyP50Ms, ms, true],
    ['retrieval latency p95', (r) => r.latencyP95Ms, ms, true],
    ['metrics (scoreRetrieval + summarise)', (r) => r.metricsMs, ms, true],
    ['total (build + retrieval + metrics)', (r) => r.totalMs, s, true],
    ['peak RSS (maxRSS)', (r) => r.peakRssMb, (n) => `${n.toFixed(0)} MB`, true],
    ['peak RSS above process start', (r) => r.peakRssMb - r.startRssMb, (n) => `${n.toFixed(0)} MB`, true],
    ['recall (sanity)', (r) => r.recall ?? NaN, (n) => metric(Number.isNaN(n) ? null : n), false],
    ['MRR (sanity)', (r) => r.mrr ?? NaN, (n) => metric(Number.isNaN(n) ? null : n), false],
  ]
  const header = [
    'figure',
    ...results.map((r) => `${int(r.documents)} docs / ${int(r.questions)} q`),
    ...(growing ? [`growth (${int(last.documents)} / ${int(first.documents)})`] : []),
  ]
  const body = rows.map(([label, value, show, growth]) => [
    label,
    ...results.map((r) => show(value(r))),
    ...(growing ? [growth ? ratio(value(first), value(last)) : ''] : []),
  ])
  return formatTable([header, ...body], 'text')
}

function linearityNote(results: readonly SizeResult[]): string | null {
  if (results.length < 2) return null
  const first = results[0]!
  const last = results[results.length - 1]!
  const scale = last.documents / first.documents
  const perChunk = (r: SizeResult) => r.buildMs / r.chunks
  const work = (r: SizeResult) => r.questions * r.chunks
  return [
    `linearity: the corpus grows x${scale.toFixed(2)}; ` +
      `build time per chunk goes ${(perChunk(first) * 1000).toFixed(1)} ` +
      `-> ${(perChunk(last) * 1000).toFixed(1)} us (x${(perChunk(last) / perChunk(first)).toFixed(2)}, ` +
      `1.00 = linear).`,
    `           retrieval does questions x chunks work (x${(work(last) / work(first)).toFixed(2)}): ` +
      `a BM25 query walks posting lists that grow with the corpus, so its latency grows with it.`,
  ].join('\n')
}

function verdict(label: string, valueMs: number, targetS: number): string {
  return `${valueMs <= targetS * 1000 ? 'PASS' : 'MISS'}  ${label}: ${s(valueMs)} (target < ${targetS} s)`
}

// ---------------------------------------------------------------------------------------------------

const command = defineCommand({
  usage: `usage: pnpm bench:retrieval [--sizes 5000:1000,10000:2000] [--seed 42] [--target-s 15] [--repo-target-s 1.5]
                            [--repo-runs 5] [--skip-repo] [--in-process]`,
  description: `  Benchmarks the retrieval tier on synthetic corpora (src/testing/synthetic-corpus.ts): for each size
  docs:questions it builds the corpus in memory, then times chunking + index build, retrieval of every
  question (latency p50/p95), scoring + summary, and records peak RSS. It also times the repository's own
  retrieval tier (its rag-eval.config.ts), evaluate(project, { tier: 'retrieval' }), in-process. Each size (and the
  repository tier) runs in a fresh Node process so that peak memory and JIT state are its own;
  --in-process runs everything in this process (for --cpu-prof; peak RSS is then cumulative).
  Chunking options come from the config and the EVAL_* variables, as in the evaluation.`,
  options: {
    sizes: option(sizesKind, { default: '5000:1000,10000:2000' }),
    seed: option(integer(), { default: '42' }),
    'target-s': option(positiveNumber, { default: '15' }),
    'repo-target-s': option(positiveNumber, { default: '1.5' }),
    'repo-runs': option(integer({ min: 0 }), { default: '5' }),
    'skip-repo': flag(),
    'in-process': flag(),
    // Internal: what a child process measures (inChild).
    'child-size': option(sizesKind),
    'child-repo': flag(),
  },
  run: async ({ values, context }) => {
    const { seed, 'repo-runs': repoRuns } = values
    const project = await projectWith(context.config, context)
    // Child modes: measure one thing, hand it to the parent, exit.
    if (values['child-size'] !== undefined) {
      await sendToParent({ size: await measureSize(values['child-size'][0]!, seed, project) })
      return 0
    }
    if (values['child-repo']) {
      await sendToParent({ repo: await measureRepo(repoRuns, project) })
      return 0
    }

    const { sizes, 'target-s': targetS, 'repo-target-s': repoTargetS } = values
    const isolated = !values['in-process']
    const config = runKnobs(project, process.env)
    console.log(
      `bench:retrieval: seed ${seed}; chunkTokens ${config.chunkTokens}, ` +
        `chunkOverlap ${config.chunkOverlap}, rankDepth ${config.rankDepth}, ` +
        `budgetTokens ${config.budgetTokens}, ` +
        `concurrency ${config.concurrency}; ${isolated ? 'one fresh process per measurement' : 'all in this process'}\n`,
    )

    let repo: RepoResult | null = null
    if (!values['skip-repo']) {
      repo = isolated
        ? ((await inChild(context.config, ['--child-repo', '--repo-runs', String(repoRuns)])) as { repo: RepoResult }).repo
        : await measureRepo(repoRuns, project)
    }
    const results: SizeResult[] = []
    for (const size of sizes) {
      const result = isolated
        ? (
            (await inChild(context.config, ['--child-size', `${size.documents}:${size.questions}`, '--seed', String(seed)])) as {
              size: SizeResult
            }
          ).size
        : await measureSize(size, seed, project)
      results.push(result)
    }

    console.log(sizeTable(results))
    const note = linearityNote(results)
    if (note) console.log(`\n${note}`)
    if (repo) {
      const warm = [...repo.warmMs].sort((a, b) => a - b)
      const median = warm.length > 0 ? warm[Math.floor((warm.length - 1) / 2)]! : null
      console.log(
        `\nrepository retrieval tier, evaluate(project, { tier: 'retrieval' }) ` +
          `in-process (${repo.documents} docs, ${repo.chunks ?? '?'} chunks, ${repo.questions} questions):` +
          `\n  first call ${ms(repo.firstMs)}` +
          (median === null
            ? ''
            : `; warm calls (${warm.length}) median ${ms(median)}, min ${ms(warm[0]!)}, max ${ms(warm[warm.length - 1]!)}`) +
          `; peak RSS ${repo.peakRssMb.toFixed(0)} MB`,
      )
    }
    const largest = results.reduce((a, b) => (b.documents > a.documents ? b : a))
    console.log('')
    console.log(verdict(`${int(largest.documents)} docs / ${int(largest.questions)} questions total`, largest.totalMs, targetS))
    if (repo) console.log(verdict('repository retrieval tier (first call)', repo.firstMs, repoTargetS))
    return 0
  },
})

await runBench('retrieval', command)
