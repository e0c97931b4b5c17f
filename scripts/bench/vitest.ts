import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { generateSyntheticCorpus, toMarkdownFile } from '../../src/testing/synthetic-corpus.ts'
import type { TreeMemory } from './process-tree-memory.ts'
import { timeVitest } from './time-vitest.ts'
import { formatTable } from '../../src/common/format-table.ts'
import { integer, kind, positiveInteger, positiveNumber } from '../../src/cli/arg-kinds.ts'
import { InputError } from '../../src/contract/input-error.ts'
import { flag, option } from '../../src/cli/args.ts'
import { defineCommand } from '../../src/cli/command.ts'
import { runBench } from './run-bench.ts'

type Tier = 'retrieval' | 'full'

interface Measured {
  questions: number
  tier: Tier
  /**
   * Whether the built corpus an earlier run kept (<root>/.cache/index/) was removed first: the run chunks and indexes the
   * corpus itself.
   */
  coldIndex: boolean
  code: number | null
  wallMs: number
  memory: TreeMemory | null
  /** Bytes of each file the run wrote into its reports folder. */
  files: Record<string, number>
  /** Vitest's count of the run's tests. */
  tests: string
}

/** Question counts, e.g. 1000,10000. */
const countsKind = kind<number[]>('question counts, e.g. 1000,10000', (text) =>
  text.split(',').map((part) => {
    if (!/^\s*[1-9]\d*\s*$/.test(part)) throw new InputError(`expected ${countsKind.expected}`)
    return Number(part)
  }),
)

const tiersKind = kind<Tier[]>('tiers, e.g. retrieval,full', (text) =>
  text.split(',').map((part) => {
    const tier = part.trim()
    if (tier !== 'retrieval' && tier !== 'full') throw new InputError(`expected ${tiersKind.expected}`)
    return tier
  }),
)

/** The synthetic corpus as Markdown files, one golden set per question count, one config per count. */
function writeBenchProject(dir: string, documents: number, counts: readonly number[], seed: number): void {
  mkdirSync(join(dir, 'corpus'))
  for (const [i, questions] of counts.entries()) {
    // The documents come first from the seeded stream: the same for every question count.
    const corpus = generateSyntheticCorpus({ seed, documents, questions })
    if (i === 0) for (const doc of corpus.documents) writeFileSync(join(dir, 'corpus', `${doc.id}.md`), toMarkdownFile(doc))
    writeFileSync(join(dir, `golden-${questions}.json`), JSON.stringify({ questions: corpus.questions }))
    const config = {
      corpus: 'corpus',
      goldenSet: `golden-${questions}.json`,
      baseline: `baseline-${questions}`,
      reports: `reports-${questions}`,
      humanLabels: 'no-labels.json',
      cacheDir: 'cache',
      system: 'builtin',
      mode: 'offline',
    }
    writeFileSync(join(dir, `rag-eval-${questions}.config.mjs`), `export default ${JSON.stringify(config, null, 2)}\n`)
  }
}

/** `vitest run --project eval` from this folder (the repository, whose vitest.config.ts has the eval project) on one golden set. */
async function runEvalProject(dir: string, questions: number, tier: Tier, coldIndex: boolean): Promise<Measured> {
  if (coldIndex) rmSync(join(dir, '.cache', 'index'), { recursive: true, force: true })
  const { code, wallMs, memory, output } = await timeVitest(['run', '--project', 'eval'], {
    env: { RAG_EVAL_CONFIG: join(dir, `rag-eval-${questions}.config.mjs`), EVAL_TIER: tier },
  })
  const reports = join(dir, `reports-${questions}`)
  const files = Object.fromEntries(readdirSync(reports).map((name) => [name, statSync(join(reports, name)).size]))
  const tests = /Tests\s+(.+\(\d+\))/.exec(output)?.[1] ?? (code === 0 ? '?' : `failed:\n${output.slice(-2000)}`)
  return { questions, tier, coldIndex, code, wallMs, memory, files, tests }
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`
const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`
const int = (n: number) => n.toLocaleString('en-US')

function resultTable(results: readonly Measured[]): string {
  const names = [...new Set(results.flatMap((r) => Object.keys(r.files)))].sort()
  const header = [
    'questions',
    'tier',
    'corpus index',
    'wall',
    'peak RSS, largest process',
    'peak RSS, process tree',
    ...names,
    'Vitest tests',
  ]
  const rows = results.map((r) => [
    int(r.questions),
    r.tier,
    r.coldIndex ? 'built' : 'kept',
    s(r.wallMs),
    r.memory ? `${r.memory.peakProcessMb.toFixed(0)} MB` : 'n/a',
    r.memory ? `${r.memory.peakTreeMb.toFixed(0)} MB` : 'n/a',
    ...names.map((name) => (r.files[name] === undefined ? '' : mb(r.files[name]))),
    r.tests,
  ])
  return formatTable([header, ...rows], 'text')
}

/** How each figure grows from the smallest to the largest golden set, per tier (1.00 per question = linear). */
function growthLines(results: readonly Measured[]): string[] {
  return (['retrieval', 'full'] as const).flatMap((tier) => {
    const ofTier = results.filter((r) => r.tier === tier && !r.coldIndex).sort((a, b) => a.questions - b.questions)
    if (ofTier.length < 2) return []
    const first = ofTier[0]!
    const last = ofTier[ofTier.length - 1]!
    const scale = last.questions / first.questions
    const json = (r: Measured) => r.files['latest.json'] ?? 0
    return [
      `${tier}: questions x${scale.toFixed(1)}; wall x${(last.wallMs / first.wallMs).toFixed(2)}, ` +
        `latest.json x${(json(last) / json(first)).toFixed(2)} ` +
        `(${(json(last) / last.questions / 1000).toFixed(2)} kB a question)` +
        (first.memory && last.memory ? `, peak RSS x${(last.memory.peakProcessMb / first.memory.peakProcessMb).toFixed(2)}` : ''),
    ]
  })
}

const command = defineCommand({
  usage: `usage: pnpm bench:vitest [--documents 10000] [--questions 1000,10000] [--tiers retrieval,full] [--seed 42]
                         [--target-s 12] [--target-mb 600] [--keep]`,
  description: `  The evaluation through Vitest on large golden sets: writes the synthetic corpus
  (src/testing/synthetic-corpus.ts) as Markdown files and a golden set per question count into a temp folder,
  then runs \`vitest run --project eval\` on each (offline, EVAL_TIER=retrieval and the full tier) from the
  current folder, which must be this repository (its vitest.config.ts holds the eval project). Prints each
  run's wall time, peak memory (the largest process, as /usr/bin/time reports it, and the process tree's
  sum; Linux only) and the size of every report file, then the growth from the smallest golden set to the
  largest and the verdict against the targets for the largest full-tier runs. The first run is the largest
  full-tier one, building the corpus's chunks and index (corpus index: built); every later run reuses what it
  kept (<root>/.cache/index/; corpus index: kept), as a project's runs do while its corpus is unchanged.
  --keep leaves the temp folder.`,
  options: {
    documents: option(integer({ min: 3 }), { default: '10000' }),
    questions: option(countsKind, { default: '1000,10000' }),
    tiers: option(tiersKind, { default: 'retrieval,full' }),
    seed: option(integer(), { default: '42' }),
    'target-s': option(positiveNumber, { default: '12' }),
    'target-mb': option(positiveInteger, { default: '600' }),
    keep: flag(),
  },
  run: async ({ values }) => {
    const { documents, questions: counts, tiers, seed } = values
    const dir = mkdtempSync(join(tmpdir(), 'rag-eval-bench-vitest-'))
    try {
      const started = performance.now()
      writeBenchProject(dir, documents, counts, seed)
      console.log(
        `bench:vitest: ${int(documents)} synthetic documents (seed ${seed}) ` +
          `written in ${s(performance.now() - started)} to ${dir}; offline; ` +
          `one \`vitest run --project eval\` per golden set and tier\n`,
      )
      const results: Measured[] = []
      const measureRun = async (questions: number, tier: Tier, coldIndex: boolean) => {
        const result = await runEvalProject(dir, questions, tier, coldIndex)
        results.push(result)
        console.log(
          `  ${int(questions)} questions, ${tier} ` +
            `tier${coldIndex ? ', corpus index built (none kept)' : ''}: ${s(result.wallMs)}, exit ${result.code}`,
        )
      }
      // First the largest full-tier run with no built corpus kept (a corpus's first run, or one just changed);
      // every run after it reuses the chunks and index it kept, as a project's runs do while its corpus is unchanged.
      const largestCount = Math.max(...counts)
      if (tiers.includes('full')) await measureRun(largestCount, 'full', true)
      for (const questions of counts) for (const tier of tiers) await measureRun(questions, tier, false)
      console.log(`\n${resultTable(results)}\n`)
      for (const line of growthLines(results)) console.log(line)
      console.log('')
      for (const largest of results.filter((r) => r.tier === 'full' && r.questions === largestCount)) {
        const wallOk = largest.wallMs <= values['target-s'] * 1000
        const memoryOk = largest.memory === null ? null : largest.memory.peakProcessMb <= values['target-mb']
        console.log(
          `${wallOk && memoryOk !== false ? 'PASS' : 'MISS'}  ${int(largest.questions)} questions, full tier, ` +
            `corpus index ${largest.coldIndex ? 'built' : 'kept'}: ${s(largest.wallMs)} (target ` +
            `< ${values['target-s']} s), ` +
            `peak RSS ${largest.memory ? `${largest.memory.peakProcessMb.toFixed(0)} MB` : 'n/a'} (target < ${values['target-mb']} MB)`,
        )
      }
      return results.every((r) => r.code === 0) ? 0 : 1
    } finally {
      if (values.keep) console.log(`kept ${dir}`)
      else rmSync(dir, { recursive: true, force: true })
    }
  },
})

await runBench('vitest', command)
