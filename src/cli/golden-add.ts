import { runKnobs } from '../config/project-config.ts'
import { appendQuestionText } from '../golden/append/append-question.ts'
import {
  askAnswerDocs,
  askConfirm,
  askGoldAnswer,
  askGoverning,
  askGrades,
  askHistory,
  askId,
  askNotes,
  askQuestion,
  askType,
} from '../authoring/add/prompts.ts'
import {
  answerDocsOf,
  buildQuestion,
  checkAnswerDocs,
  checkGradedDocs,
  checkGoldAnswer,
  checkGoverning,
  checkId,
  checkQuestionText,
  parseHistory,
  parseRelevance,
  parseType,
  parseUserContext,
  splitDocIds,
  type Check,
  type Parsed,
} from '../authoring/add/question-draft.ts'
import { previewRanking, renderRankingPreview } from '../authoring/add/ranking-preview.ts'
import { goldenSetText } from '../golden/golden-set-text.ts'
import { schemaReference } from '../golden/schema-reference.ts'
import { bestChunksOfNoneQuestions } from '../golden/lint/best-chunks.ts'
import { lintGoldenSet } from '../golden/lint/lint-golden-set.ts'
import { nextQuestionId } from '../golden/question-ids.ts'
import type { CorpusDocument } from '../load/corpus.ts'
import { validateGoldenSet } from '../load/golden-set.ts'
import type { GoldenQuestion, HistoryTurn, Relevance, UserContext } from '../contract/golden-set-schema.ts'
import type { QuestionType } from '../contract/question-types.ts'
import { InputError } from '../contract/input-error.ts'
import { createBuiltinSystem } from '../builtin/builtin-system.ts'
import { file, fileToWrite, folder, kind, text, ValueRejected, type Kind } from './arg-kinds.ts'
import { flag, option, parseValue } from './args.ts'
import { projectDocuments, projectWith } from './cli-project.ts'
import { defineCommand } from './command.ts'
import { keptPieceCounts } from '../text/token-count-cache.ts'
import { readGoldenFileToAppend, writeGoldenFile, type GoldenFile } from '../golden/append/golden-file-to-append.ts'

/** A question type or one of its aliases, as the canonical type. */
const questionType = kind<QuestionType>(
  'single, multi, contradiction or none (aliases: lookup, multi-hop, abstention)',
  (value) => {
    const type = parseType(value)
    if (typeof type !== 'string') throw new ValueRejected(type.error)
    return type
  },
)

/** A parser of question-draft.ts as an argument kind: its error becomes the option's message. */
function parsedKind<T>(expected: string, parse: (value: string) => Parsed<T>): Kind<T> {
  return kind<T>(expected, (value) => {
    const parsed = parse(value)
    if ('error' in parsed) throw new ValueRejected(parsed.error)
    return parsed.value
  })
}

const historyTurns = parsedKind<HistoryTurn[]>('a JSON list of turns [{"role": "user", "content": "..."}, ...]', parseHistory)
const grades = parsedKind<Relevance>('doc=grade pairs such as doc-040=3,doc-012=1,doc-031=0', parseRelevance)
const userContextObject = parsedKind<UserContext>('a JSON object such as {"role": "admin"}', parseUserContext)

function ensure(check: Check, flag: string): void {
  if (check !== true) throw new InputError(`${flag}: ${check}`)
}

/** The flags a non-interactive run must give for a question of `type` (unknown: the type itself is missing). */
function missingFlags(values: Record<string, unknown>, type: QuestionType | undefined): string[] {
  const missing: string[] = []
  if (values.type === undefined) missing.push('--type')
  if (values.question === undefined) missing.push('--question')
  if (type !== 'none' && values['answer-docs'] === undefined && values.relevance === undefined)
    missing.push('--answer-docs (or --relevance)')
  if (type !== 'none' && values['gold-answer'] === undefined) missing.push('--gold-answer')
  if (type === 'contradiction' && values.governing === undefined) missing.push('--governing')
  return missing
}

/** Appends to the file as it was read; a file changed since (someone else edited it) is refused, naming what changed. */
function append(file: string, read: GoldenFile, question: GoldenQuestion, docs: readonly CorpusDocument[]): void {
  const text =
    read.text === null ? goldenSetText([question], schemaReference(file)) : appendQuestionText(read.text, question).text
  validateGoldenSet(JSON.parse(text), file, docs)
  writeGoldenFile(file, read.text, text, 'golden add')
}

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
  terminal both the history and the grades are asked for.`,
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
    yes: flag(),
  },
  run: async ({ values, context }) => {
    const project = await projectWith(values.config ?? context.config, values)
    const golden = project.goldenSet
    // A typo in --golden (or the config) must not start a new golden set: a new file only when asked for.
    parseValue(
      values.golden === undefined ? `goldenSet of ${project.source}:` : '--golden',
      golden,
      values.create ? fileToWrite : file,
    )
    const interactive = process.stdin.isTTY === true && process.stdout.isTTY === true
    if (!interactive) {
      const missing = missingFlags(values, values.type)
      if (missing.length > 0)
        throw new InputError(`missing ${missing.join(', ')}: stdin is not a terminal, so golden:add cannot ask for them`)
    }
    const config = runKnobs(project, process.env)
    const docs = projectDocuments(project, 'golden add')
    const read = readGoldenFileToAppend(golden, docs, 'golden:add')
    const existingIds = read.questions.map((q) => q.id)
    const tokenCounts = keptPieceCounts(project.root)
    const system = createBuiltinSystem(docs, { ...config, generate: false })
    tokenCounts.keep()

    try {
      const built = await composeQuestion(values, interactive, existingIds, docs, system)
      await showRankingAndFindings(built, system, config.budgetTokens, read, docs, config)

      if (!values.yes) {
        if (!interactive)
          throw new InputError(
            'not written: stdin is not a terminal, so golden:add cannot ask for confirmation; pass --yes to append',
          )
        if (!(await askConfirm(`Append ${built.id} to ${golden}?`))) {
          console.log('not written')
          return 1
        }
      }
      append(golden, read, built, docs)
      console.log(`appended ${built.id} (${built.type}) to ${golden}`)
      return 0
    } catch (error) {
      if (error instanceof Error && error.name === 'ExitPromptError') {
        console.error('golden:add: cancelled; nothing written')
        return 130
      }
      throw error
    }
  },
})

type BuiltinSystem = ReturnType<typeof createBuiltinSystem>

/** The flags that give the question's fields; what they leave out is asked for on a terminal. */
interface QuestionFlags {
  id?: string | undefined
  type?: QuestionType | undefined
  question?: string | undefined
  'answer-docs'?: string | undefined
  relevance?: Relevance | undefined
  'gold-answer'?: string | undefined
  governing?: string | undefined
  notes?: string | undefined
  'user-context'?: UserContext | undefined
  history?: HistoryTurn[] | undefined
}

/** The question from its flags and the answers to what they leave out, each field checked as it comes. */
async function composeQuestion(
  values: QuestionFlags,
  interactive: boolean,
  existingIds: string[],
  docs: readonly CorpusDocument[],
  system: BuiltinSystem,
): Promise<GoldenQuestion> {
  const suggested = nextQuestionId(existingIds)
  const id = values.id?.trim() ?? (interactive ? await askId(suggested, existingIds) : suggested)
  ensure(checkId(id, existingIds), '--id')
  const type = values.type ?? (await askType())
  const userContext = values['user-context']
  // The conversation comes first: the question is written as it follows it ("and on the Enterprise plan?").
  const history = values.history ?? (interactive && values.question === undefined ? await askHistory() : [])
  const questionText = values.question ?? (await askQuestion())
  ensure(checkQuestionText(questionText), '--question')
  const asked = { id, question: questionText, userContext: userContext ?? null, ...(history.length > 0 ? { history } : {}) }

  let relevance = values.relevance
  if (relevance !== undefined) ensure(checkGradedDocs(relevance, docs), '--relevance')
  let answerDocIds: string[] = []
  let rankedDocIds: string[] = []
  if (values['answer-docs'] !== undefined) {
    answerDocIds = splitDocIds(values['answer-docs'])
    ensure(checkAnswerDocs(answerDocIds, type, docs), '--answer-docs')
  } else if (relevance !== undefined) {
    answerDocIds = answerDocsOf(relevance)
    ensure(checkAnswerDocs(answerDocIds, type, docs), '--relevance')
  } else if (type !== 'none') {
    const { ranked } = await system.answer(asked)
    const bestRank = new Map<string, number>()
    ranked.forEach((chunk, index) => bestRank.has(chunk.docId) || bestRank.set(chunk.docId, index + 1))
    rankedDocIds = [...bestRank.keys()]
    answerDocIds = await askAnswerDocs(type, docs, bestRank)
  }
  if (relevance === undefined && interactive && type !== 'none' && values['answer-docs'] === undefined) {
    const others = rankedDocIds.filter((docId) => !answerDocIds.includes(docId)).slice(0, 10)
    relevance = (await askGrades(answerDocIds, others, docs)) ?? undefined
  }

  let governingDocId: string | undefined
  if (type === 'contradiction') {
    governingDocId = values.governing ?? (await askGoverning(answerDocIds, docs))
    ensure(checkGoverning(governingDocId, answerDocIds), '--governing')
  } else if (values.governing !== undefined) {
    throw new InputError(`--governing: only contradiction questions have a governing document (this one is ${type})`)
  }

  const goldAnswer = values['gold-answer'] ?? (type === 'none' ? undefined : await askGoldAnswer(type))
  if (goldAnswer !== undefined) ensure(checkGoldAnswer(goldAnswer, type), '--gold-answer')
  const notes = values.notes ?? (interactive ? await askNotes() : undefined)

  const built = buildQuestion({
    id,
    type,
    question: questionText,
    answerDocIds,
    relevance,
    goldAnswer,
    governingDocId,
    notes,
    userContext,
    history,
  })
  if ('errors' in built) throw new InputError(built.errors.join('\n'))
  return built
}

/** Prints how the built-in system ranks the new question and what golden:check finds in it, beside the set's questions. */
async function showRankingAndFindings(
  built: GoldenQuestion,
  system: BuiltinSystem,
  budgetTokens: number,
  read: GoldenFile,
  docs: readonly CorpusDocument[],
  config: Parameters<typeof bestChunksOfNoneQuestions>[2],
): Promise<void> {
  const preview = await previewRanking(built, system, budgetTokens)
  console.log(`\n${renderRankingPreview(preview, built)}`)
  const bestChunks = await bestChunksOfNoneQuestions([built], docs, config)
  const findings = lintGoldenSet({
    questions: [...read.questions, built],
    docs,
    bestChunks,
    floors: { single: 0, multi: 0, contradiction: 0, none: 0 },
  }).filter((f) => f.questionId === built.id)
  console.log(findings.length === 0 ? 'golden:check: no finding for this question' : 'golden:check on this question:')
  for (const f of findings) console.log(`  ${f.severity} ${f.rule}: ${f.message}\n    fix: ${f.fix}`)
}
