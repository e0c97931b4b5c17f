import { runKnobs } from '../config/project-config.ts'
import { askConfirm } from '../authoring/add/prompts.ts'
import {
  appendQuestion,
  composeQuestion,
  missingFlags,
  questionFindings,
  type BuiltinSystem,
} from '../authoring/add/compose-question.ts'
import { parseHistory, parseRelevance, parseType, parseUserContext } from '../authoring/add/question-draft.ts'
import { previewRanking, renderRankingPreview } from '../authoring/add/ranking-preview.ts'
import type { CorpusDocument } from '../load/corpus.ts'
import type { EvalConfig } from '../contract/eval-config-schema.ts'
import type { GoldenQuestion } from '../contract/golden-set-schema.ts'
import { InputError } from '../contract/input-error.ts'
import { createBuiltinSystem } from '../builtin/builtin-system.ts'
import { file, fileToWrite, folder, kind, text } from './arg-kinds.ts'
import { flag, option, parseValue } from './args.ts'
import { projectDocuments, projectWith } from './cli-project.ts'
import { defineCommand } from './command.ts'
import type { Io } from './run-cli.ts'
import { keptPieceCounts } from '../text/token-count-cache.ts'
import { readGoldenFile, type GoldenFile } from '../golden/append/golden-file-to-append.ts'

const questionType = kind('single, multi, contradiction or none (aliases: lookup, multi-hop, abstention)', parseType)
const historyTurns = kind('a JSON list of turns [{"role": "user", "content": "..."}, ...]', parseHistory)
const grades = kind('doc=grade pairs such as doc-040=3,doc-012=1,doc-031=0', parseRelevance)
const userContextObject = kind('a JSON object such as {"role": "admin"}', parseUserContext)

export const command = defineCommand({
  usage: `usage: rag-eval golden add [--config rag-eval.config.ts] [--golden file] [--create] [--corpus folder]
                         [--id q-NNN] [--type single|multi|contradiction|none] [--question text]
                         [--answer-docs doc-001,doc-002] [--relevance doc-001=3,doc-002=1,doc-009=0]
                         [--gold-answer text] [--governing doc-id] [--notes text] [--user-context json]
                         [--history json] [--yes]`,
  description: `  Appends one question to the golden set (the config's goldenSet, or --golden). Missing fields are asked for when stdin is a terminal (else
  they must be flags; --id defaults to the next free q-NNN; types accept the aliases lookup, multi-hop,
  abstention). Before saving it shows the built-in system's top 10 chunks for the question, whether the
  context packed within the budget hits, and what golden:check says about the question; then asks for
  confirmation (--yes skips it). The file is written atomically and every existing byte is kept. The
  golden set must exist; --create starts a new one when there is none. --relevance grades documents 0..3
  (0 judged not relevant, 3 the primary source; those graded 1+ are the answer docs, so --answer-docs may
  be left out). --user-context is who asks, a JSON object. --history makes a follow-up question: the turns
  before it as JSON, [{"role": "user", "content": "..."}, {"role": "assistant", "content": "..."}]; on a
  terminal both the history and the grades are asked for. --probe-docs makes a cross-tenant probe (a none
  question with --user-context): the other tenant's documents that hold its answer (docs/security.md).`,
  options: {
    config: option(file),
    golden: option(text),
    create: flag(),
    corpus: option(folder),
    id: option(text),
    type: option(questionType),
    question: option(text),
    'answer-docs': option(text),
    relevance: option(grades),
    'gold-answer': option(text),
    governing: option(text),
    notes: option(text),
    'user-context': option(userContextObject),
    history: option(historyTurns),
    'probe-docs': option(text),
    yes: flag(),
  },
  run: async ({ values, context }) => {
    const project = await projectWith(values.config ?? context.config, context, values)
    const golden = project.goldenSet
    // A typo in --golden (or the config) must not start a new golden set: a new file only when asked for.
    parseValue(
      values.golden === undefined ? `goldenSet of ${project.source}:` : '--golden',
      golden,
      values.create ? fileToWrite : file,
    )
    const interactive = context.terminal
    if (!interactive) {
      const missing = missingFlags(values, values.type)
      if (missing.length > 0)
        throw new InputError(`missing ${missing.join(', ')}: stdin is not a terminal, so golden:add cannot ask for them`)
    }
    const config = runKnobs(project, context.env)
    const docs = projectDocuments(project, 'golden add')
    const read = readGoldenFile(golden, docs, 'golden:add')
    const existingIds = read.questions.map((q) => q.id)
    const tokenCounts = keptPieceCounts(project.root)
    const system = createBuiltinSystem(docs, { ...config, generate: false })
    tokenCounts.keep()

    try {
      const built = await composeQuestion(values, interactive, existingIds, docs, system)
      await showRankingAndFindings(built, system, read, docs, config, context.out)

      if (!values.yes) {
        if (!interactive)
          throw new InputError(
            'not written: stdin is not a terminal, so golden:add cannot ask for confirmation; pass --yes to append',
          )
        if (!(await askConfirm(`Append ${built.id} to ${golden}?`))) {
          context.out('not written\n')
          return 1
        }
      }
      appendQuestion(golden, read, built, docs)
      context.out(`appended ${built.id} (${built.type}) to ${golden}\n`)
      return 0
    } catch (error) {
      if (error instanceof Error && error.name === 'ExitPromptError') {
        context.err('golden:add: cancelled; nothing written\n')
        return 130
      }
      throw error
    }
  },
})

/** Prints how the built-in system ranks the new question and what golden:check finds in it. */
async function showRankingAndFindings(
  built: GoldenQuestion,
  system: BuiltinSystem,
  read: GoldenFile,
  docs: readonly CorpusDocument[],
  config: EvalConfig,
  out: Io['out'],
): Promise<void> {
  const preview = await previewRanking(built, system, config.budgetTokens)
  out(`\n${renderRankingPreview(preview, built)}\n`)
  const findings = await questionFindings(built, read, docs, config)
  out(`${findings.length === 0 ? 'golden:check: no finding for this question' : 'golden:check on this question:'}\n`)
  for (const f of findings) out(`  ${f.severity} ${f.rule}: ${f.message}\n    fix: ${f.fix}\n`)
}
