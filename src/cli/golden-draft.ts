import { existsSync } from 'node:fs'
import { runKnobs } from '../config/project-config.ts'
import { InputError } from '../contract/input-error.ts'
import { QUESTION_TYPES } from '../contract/question-types.ts'
import type { RunEstimate } from '../contract/model-usage-schema.ts'
import { chunkCorpus } from '../builtin/chunker.ts'
import { createRetriever } from '../builtin/create-retriever.ts'
import { writeFileAtomic } from '../files/write-file-atomic.ts'
import { draftSet, type DraftRun } from '../authoring/draft/draft-set.ts'
import { allocate, DEFAULT_MIX, parseMix } from '../authoring/draft/mix.ts'
import { planDrafts } from '../authoring/draft/plan.ts'
import { readPersonas, selectDocs } from '../authoring/draft/draft-inputs.ts'
import { tenantAskers } from '../authoring/draft/probes.ts'
import { accessDecision } from '../load/access-rules.ts'
import { askConfirm } from '../authoring/add/prompts.ts'
import { BudgetExceededError, formatUsd } from '../model/spending-cap.ts'
import { sha256Of } from '../common/stable-json.ts'
import { modelTierPaths } from '../run/model-tier.ts'
import { file, fileToWrite, folder, integer, kind, positiveInteger, text } from './arg-kinds.ts'
import { flag, option } from './args.ts'
import { projectDocuments, projectWith } from './cli-project.ts'
import { defineCommand } from './command.ts'
import { openDrafterClient } from './drafter-client.ts'

const mix = kind(`type=share,... (default ${DEFAULT_MIX})`, parseMix)

const integerCount = (n: number) => n.toLocaleString('en-US')
const percent = (part: number, whole: number) => (whole === 0 ? '0%' : `${Math.round((100 * part) / whole)}%`)

function renderEstimateLines(estimate: RunEstimate, batch: boolean): string[] {
  const r = estimate.byRole.generator
  return [
    `cost estimate before any model call (${estimate.basis}):`,
    `  drafter (${r.model}${batch ? ', in batches at the batch price' : ''}): ${integerCount(r.calls)} call(s) to send, ` +
      `${integerCount(r.cached)} from the cache; ~${integerCount(r.inputTokens)} input + ${integerCount(r.outputTokens)} ` +
      `output tokens: ~${formatUsd(r.usd)} (ceiling ${formatUsd(r.worstCaseUsd)}, every reply at max_tokens)` +
      (estimate.maxUsd === null ? ' · no cap (EVAL_MAX_USD unset)' : ` · EVAL_MAX_USD ${formatUsd(estimate.maxUsd)}`),
    // The drafter is accounted as the generator role (the model that writes): its notes say drafter.
    ...estimate.notes.map((note) => `  note: ${note.replace(/^generator /, 'drafter ')}`),
  ]
}

function renderOutcome(run: DraftRun, probes: number, out: string): string[] {
  const got = (type: (typeof QUESTION_TYPES)[number]) =>
    run.questions.filter((q) => q.type === type && q.probeDocIds === undefined).length
  const { documentCoverage: corpus } = run
  return [
    `drafted ${run.questions.length} of ${QUESTION_TYPES.reduce((s, t) => s + run.wanted[t], 0)}: ` +
      QUESTION_TYPES.map((t) => `${t} ${got(t)} of ${run.wanted[t]}`).join(', ') +
      (probes > 0 ? `; cross-tenant probes ${run.questions.filter((q) => q.probeDocIds).length} of ${probes}` : ''),
    `coverage: ${corpus.used} of ${corpus.documents} documents (${percent(corpus.used, corpus.documents)}) ` +
      `answer at least one draft; most uses of one document: ` +
      (corpus.mostUses === null ? 'none' : `${corpus.mostUses.drafts} (${corpus.mostUses.docId})`),
    ...(run.dropped.length > 0
      ? [`not kept (${run.dropped.length}):`, ...run.dropped.map((d) => `  ${d.key}: ${d.reason}`)]
      : []),
    `wrote ${run.questions.length} draft(s) to ${out}: unreviewed; check them with rag-eval golden verify ${out}, ` +
      `then accept them with rag-eval golden review`,
  ]
}

export const command = defineCommand({
  usage: `usage: rag-eval golden draft [--config rag-eval.config.ts] [--corpus folder] [--count 100]
                           [--mix single=0.55,multi=0.25,contradiction=0.1,none=0.1] [--out evals/drafts.jsonl]
                           [--docs glob] [--user-contexts file] [--probes 0] [--seed 1] [--batch]
                           [--recording golden-draft]
                           [--estimate] [--yes] [--force]`,
  description: `  Drafts a first golden set from the corpus with the drafter model (drafterModel, EVAL_DRAFTER_MODEL; default
  the generator model): --count questions typed by --mix, each tied to the documents and verbatim quotes that
  answer it, written as JSON Lines of golden-set questions with their provenance. Documents are drawn
  stratified over folders and sizes (the output reports coverage); multi drafts come from documents that share
  rare terms (BM25), contradiction drafts from sentences that state other numbers for the same fact (confirmed
  by the model; the governing document by supersedes, else the newer updated date, else the model's reason,
  flagged for review); none drafts stay on the corpus's subjects. --user-contexts (a JSON list of personas)
  gives each draft a userContext and drafts the questions that persona would ask. --probes N adds N cross-tenant
  probes: a question drafted from a document the access rule keeps from some asker (the personas, else one per
  tenant the front matter's access: names), asked by that asker: type none, probeDocIds that document.
  The model client's cache, retries, concurrency, ledger and EVAL_MAX_USD cap apply; the cost estimate is
  printed before the first call (confirm on a terminal, --yes otherwise; --estimate prints it and stops).
  --batch sends the calls through the Message Batches API (half price); EVAL_MODE=record and replay record
  to and draft from fixtures/recordings/<--recording>. An existing --out file is replaced only with --force.
  Drafts are never golden questions until reviewed: rag-eval golden verify, then rag-eval golden review.`,
  options: {
    config: option(file),
    corpus: option(folder),
    count: option(positiveInteger, { default: '100' }),
    mix: option(mix, { default: DEFAULT_MIX }),
    out: option(fileToWrite, { default: 'evals/drafts.jsonl' }),
    docs: option(text),
    'user-contexts': option(file),
    probes: option(integer({ min: 0 }), { default: '0' }),
    seed: option(integer(), { default: '1' }),
    batch: flag(),
    recording: option(
      kind('a recording name of letters, digits, . _ -', (value) => {
        if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(value)) throw new InputError('expected letters, digits, . _ -')
        return value
      }),
      { default: 'golden-draft' },
    ),
    estimate: flag(),
    yes: flag(),
    force: flag(),
  },
  run: async ({ values, context }) => {
    // Checked before any planning or call: drafts under review would be lost.
    if (!values.estimate && !values.force && existsSync(values.out))
      throw new InputError(
        `${values.out} exists: pass --force to replace its drafts (and what golden verify and review made of them), or --out another file`,
      )
    const project = await projectWith(values.config ?? context.config, context, { corpus: values.corpus })
    const config = runKnobs(project, context.env)
    const allDocs = projectDocuments(project, 'golden draft')
    const docs = selectDocs(allDocs, project.corpus!.dir, values.docs)
    const personas = values['user-contexts'] === undefined ? [] : readPersonas(values['user-contexts'])
    const wanted = allocate(values.count, values.mix)
    // Planning over a large corpus takes seconds: said before it starts.
    context.out(`planning ${values.count} draft(s) over ${docs.length} document(s)\n`)
    const chunks = chunkCorpus(docs, config)
    const plan = planDrafts(docs, chunks, wanted, {
      seed: values.seed,
      personas,
      retriever: createRetriever(chunks, config.retrieval),
      probes: {
        count: values.probes,
        askers: personas.length > 0 ? personas : tenantAskers(allDocs),
        mayRead: accessDecision(project.access, { dir: project.corpus!.dir, documents: allDocs }),
      },
    })
    for (const line of plan.shortfalls) context.out(`note: ${line}\n`)
    const probes = plan.tasks.filter((t) => t.probeAsker !== undefined).length
    if (plan.tasks.length === 0) throw new InputError('nothing to draft: the corpus has no passage')

    const drafter = openDrafterClient(config, context.env, modelTierPaths(project), {
      batch: values.batch,
      recording: values.recording,
      progress: (line) => context.out(`${line}\n`),
      estimateOnly: values.estimate,
    })
    const runOptions = { model: drafter.model, maxTokens: config.generatorMaxTokens, now: () => new Date() }
    context.out(
      `drafting ${values.count} question(s) (${QUESTION_TYPES.map((t) => `${t} ${wanted[t]}`).join(', ')})` +
        (probes > 0 ? ` and ${probes} cross-tenant probe(s)` : '') +
        ' from ' +
        `${docs.length} document(s) with ${drafter.model} (${drafter.mode}, ${drafter.serverName}): ${plan.tasks.length} call(s) planned` +
        '\n',
    )
    if (drafter.mode !== 'replay') {
      await drafter.checkServer()
      const estimate = await drafter.estimate(async (standIn) => {
        await draftSet(standIn, plan, docs, wanted, runOptions)
      })
      context.out(`${renderEstimateLines(estimate, values.batch).join('\n')}\n`)
      if (values.estimate) return 0
      if (!values.yes) {
        if (!context.terminal)
          throw new InputError('not drafted: stdin is not a terminal, so golden draft cannot ask to go ahead; pass --yes')
        if (!(await askConfirm('Draft now?'))) {
          context.out('nothing drafted\n')
          return 1
        }
      }
    }

    drafter.begin({
      corpusHash: sha256Of(docs.map((d) => [d.id, d.body])).slice(0, 16),
      planHash: sha256Of(plan.tasks.map((t) => [t.key, t.passages.map((p) => p.chunkId)])).slice(0, 16),
    })
    let run: DraftRun
    try {
      run = await draftSet(drafter.client, plan, docs, wanted, runOptions)
    } catch (error) {
      await drafter.client.drain()
      if (error instanceof BudgetExceededError)
        throw new InputError(
          `${error.settled(drafter.client.spentUsd, drafter.client.paidCalls).message}\nnothing written to ${values.out}`,
        )
      throw error
    }
    drafter.finish(plan.tasks.map((t) => t.key))
    writeFileAtomic(values.out, run.questions.map((q) => JSON.stringify(q)).join('\n') + (run.questions.length > 0 ? '\n' : ''))
    const usage = drafter.client.ledger
    const byRole = usage.byRole('generator')
    context.out(`${renderOutcome(run, probes, values.out).join('\n')}\n`)
    context.out(
      `model calls: ${byRole.calls} to the API, ${byRole.cacheHits} from the cache, ${byRole.retries} retries; ` +
        `${formatUsd(byRole.usd)}` +
        (byRole.batchCalls > 0 ? ` (${byRole.batchCalls} in batches, ${formatUsd(byRole.batchSavedUsd)} saved)` : '') +
        (drafter.scripted() ? ' (a scripted server: its drafts say nothing about a model)' : '') +
        '\n',
    )
    return 0
  },
})
