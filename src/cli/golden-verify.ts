import { runKnobs, type ProjectConfig } from '../config/project-config.ts'
import type { EvalConfig } from '../contract/eval-config-schema.ts'
import { InputError } from '../contract/input-error.ts'
import { writeFileAtomic } from '../files/write-file-atomic.ts'
import { createBuiltinSystem } from '../builtin/builtin-system.ts'
import { bestChunksOfNoneQuestions } from '../golden/lint/best-chunks.ts'
import { offlineVerifier } from '../authoring/verify/lexical-judgements.ts'
import { createModelVerifier } from '../authoring/verify/model-verifier.ts'
import { CANDIDATE_FORMATS, readCandidates } from '../authoring/verify/read-candidates.ts'
import { renderVerifySummary, verifiedJsonl } from '../authoring/verify/render-verdicts.ts'
import type { Verifier } from '../authoring/verify/verifier.ts'
import { systemRetriever } from '../authoring/verify/system-retriever.ts'
import { verifyCandidates, type Retriever } from '../authoring/verify/verify-candidates.ts'
import { readGoldenFile } from '../golden/append/golden-file-to-append.ts'
import { accessDecision } from '../load/access-rules.ts'
import { keptPieceCounts } from '../text/token-count-cache.ts'
import { file, fileToWrite, folder, oneOf } from './arg-kinds.ts'
import { option, type CommandContext } from './args.ts'
import { projectDocuments, projectWith } from './cli-project.ts'
import { defineCommand } from './command.ts'
import { withRetrievingSystem } from './retrieving-system.ts'

export const command = defineCommand({
  usage: `usage: rag-eval golden verify <file> [--format golden|jsonl|ragas|trec] [--topics file] [--out evals/verified.jsonl]
                            [--config rag-eval.config.ts] [--golden file] [--corpus folder]`,
  description: `  Checks a candidate golden set (drafts, an import from another tool, a hand-written set) and writes one
  verdict per question to --out: kept, rejected or undecided, with reasons. Checks: every claim of the gold
  answer supported by the gold documents (the judge, per claim); the question does not contain its answer;
  no near-duplicate in the file or in the current golden set (same asker, same answer documents; the pair
  is named); a multi question needs more than one of its documents; a none question is answered by no
  passage of the built-in retriever's or the configured system's top-k; a contradiction's documents really
  disagree, and its governing document is not superseded; and golden:check's rules. EVAL_MODE=offline
  (default) judges lexically and leaves what it cannot decide undecided; EVAL_MODE=live asks the judge
  model (EVAL_JUDGE_MODEL) through the model client (cache, retries, EVAL_MAX_USD). Exit 0 when every
  candidate was judged, whatever the verdicts; docs/golden-set.md lists the checks.`,
  options: {
    format: option(oneOf(CANDIDATE_FORMATS), { default: 'golden' }),
    topics: option(file),
    out: option(fileToWrite, { default: 'evals/verified.jsonl' }),
    config: option(file),
    golden: option(file),
    corpus: option(folder),
  },
  positionals: [{ name: 'file', kind: file }],
  run: async ({ values, positionals: [source], context }) => {
    const project = await projectWith(values.config ?? context.config, context, values)
    const config = runKnobs(project, context.env)
    const docs = projectDocuments(project, 'golden verify')
    const candidates = readCandidates(source, values.format, docs, values.topics)
    // The current golden set, for duplicates; none yet is fine (the first verified set).
    const golden = readGoldenFile(project.goldenSet, docs, 'golden verify').questions
    const valid = candidates.flatMap((c) => (c.question === null ? [] : [c.question]))
    const tokenCounts = keptPieceCounts(project.root)
    const mayRead = accessDecision(project.access, { dir: project.corpus!.dir, documents: docs })
    const bestChunks = await bestChunksOfNoneQuestions(valid, docs, config)
    const { verifier, usage } = await openVerifier(project, config, context)
    const builtin = systemRetriever(
      'the built-in BM25 retriever',
      createBuiltinSystem(docs, { ...config, generate: false }),
      config.k,
    )
    tokenCounts.keep()
    const verify = async (retrievers: Retriever[]) => {
      const verified = await verifyCandidates({ candidates, docs, golden, verifier, retrievers, bestChunks, mayRead })
      writeFileAtomic(values.out, verifiedJsonl(verified))
      context.out(`${renderVerifySummary(verified, verifier.name, values.out)}\n`)
      const spent = usage()
      if (spent !== null) context.out(`${spent}\n`)
    }
    if (project.system === 'builtin') await verify([builtin])
    else
      await withRetrievingSystem(project, config, docs, context, (system) =>
        verify([builtin, systemRetriever(`the configured system (${system.name ?? 'unnamed'})`, system, config.k)]),
      )
    return 0
  },
})

/** The offline verifier, or the model's (live): the same client, cache, retries and cap as an evaluation's judge. */
export async function openVerifier(
  project: ProjectConfig,
  config: EvalConfig,
  context: CommandContext,
  command = 'golden verify',
): Promise<{ verifier: Verifier; usage: () => string | null }> {
  if (config.mode === 'offline') return { verifier: offlineVerifier, usage: () => null }
  if (config.mode !== 'live')
    throw new InputError(`${command} runs offline or live; EVAL_MODE=${config.mode} is for evaluation runs (use EVAL_MODE=live)`)
  const tier = await import('../run/model-tier.ts')
  const model = tier.openModelTier({ ...config, mode: 'live' }, context.env, tier.modelTierPaths(project), () => new Date(), {
    progress: (line) => context.err(`${line}\n`),
  })
  await model.checkServer()
  return {
    verifier: createModelVerifier(model.client, { model: config.judgeModel, maxTokens: config.judgeMaxTokens }),
    usage: () => {
      const judge = model.client.ledger.byRole('judge')
      return `model: ${judge.calls} call${judge.calls === 1 ? '' : 's'}, ${judge.cacheHits} from the cache, USD ${judge.usd.toFixed(4)}`
    },
  }
}
