import { runKnobs } from '../config/project-config.ts'
import { InputError } from '../contract/input-error.ts'
import { readVerifiedFile } from '../authoring/review/kept-drafts.ts'
import { retrievedPassages } from '../authoring/verify/system-retriever.ts'
import { renderCard } from '../authoring/review/review-card.ts'
import { terminalPrompts } from '../authoring/review/review-prompts.ts'
import {
  acceptAllKept,
  pendingDrafts,
  runReview,
  unreviewedInGolden,
  type ReviewTally,
} from '../authoring/review/review-session.ts'
import { lockReview, readReviewState, reviewStatePath, writeReviewState } from '../authoring/review/review-state.ts'
import { supportMarks } from '../authoring/review/supporting-sentences.ts'
import { readGoldenFile } from '../golden/append/golden-file-to-append.ts'
import { file, folder, text } from './arg-kinds.ts'
import { flag, option } from './args.ts'
import { projectDocuments, projectWith } from './cli-project.ts'
import { defineCommand } from './command.ts'
import { withRetrievingSystem } from './retrieving-system.ts'
import { resolveReviewer } from './reviewer-name.ts'

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

export const command = defineCommand({
  usage: `usage: rag-eval golden review [--drafts evals/verified.jsonl] [--reviewer NAME] [--accept-kept]
                            [--config rag-eval.config.ts] [--golden file] [--corpus folder]`,
  description: `  Walks the drafts golden verify kept (--drafts, its --out) on a terminal, one at a time: the question, its
  type, userContext and history, the gold answer claim by claim, the gold documents with the sentences that
  support each claim marked (>>, by golden verify's offline support check), and what the configured system
  retrieves for it. Then: accept (appended to the golden set at once, with the next free q-NNN id), edit
  (the question and the gold answer, then accept), reject, skip (shown again next time) or quit.
  Decisions are saved as they are made in <drafts>.review.json beside the drafts, so a rerun continues
  with the next undecided draft; accepted and rejected drafts are not shown again. The golden set is
  written atomically (a temp file, then a rename) and must pass golden:check after each append: a draft
  that would break it is refused, naming the errors. Accepted questions carry their provenance: drafted
  by which model, prompt hash and when (from the draft); reviewedBy (--reviewer, else git config
  user.name, else $USER) and reviewedAt. Without a terminal, --accept-kept appends every kept draft
  recorded as unreviewed (provenance.unreviewed: true), which every evaluation report then warns about.`,
  options: {
    drafts: option(file, { default: 'evals/verified.jsonl' }),
    reviewer: option(text),
    'accept-kept': flag(),
    config: option(file),
    golden: option(text),
    corpus: option(folder),
  },
  run: async ({ values, context }) => {
    const interactive = context.terminal
    if (!interactive && !values['accept-kept'])
      throw new InputError(
        'stdin is not a terminal, so golden review cannot show the drafts to a person; run it in a terminal, or pass ' +
          '--accept-kept to append every kept draft recorded as unreviewed (provenance.unreviewed: true; reports warn about them)',
      )
    const project = await projectWith(values.config ?? context.config, context, values)
    const config = runKnobs(project, context.env)
    const docs = projectDocuments(project, 'golden review')
    const goldenFile = project.goldenSet
    const reviewer = resolveReviewer(values.reviewer, context.env, context.cwd)
    const verified = readVerifiedFile(values.drafts)
    const stateFile = reviewStatePath(values.drafts)
    // One session at a time on these drafts: its state is read here and written after every decision.
    const release = lockReview(stateFile, reviewer.name)
    try {
      const state = readReviewState(stateFile, values.drafts, goldenFile)
      const golden = readGoldenFile(goldenFile, docs, 'golden review').questions
      const { pending, notes } = pendingDrafts(verified.kept, state, golden)
      const { counts } = verified
      context.out(
        `${values.drafts}: ${counts.kept} kept, ${counts.rejected} rejected, ${counts.undecided} undecided (only kept drafts are reviewed); ` +
          `${verified.kept.length - pending.length} decided earlier (${stateFile}), ${pending.length} to review` +
          '\n',
      )
      for (const note of notes) context.out(`note: ${note}\n`)
      if (notes.length > 0) writeReviewState(stateFile, state)
      const target = { file: goldenFile, docs, config }

      if (values['accept-kept']) {
        context.out(`accepting every kept draft unreviewed (--accept-kept, run by ${reviewer.name}, from ${reviewer.from})\n`)
        const { plan } = await acceptAllKept({ pending, state, stateFile, target, reviewer: reviewer.name })
        for (const r of plan.refused)
          context.err(`not appended: ${r.key} would break golden:check:\n${r.errors.map((e) => `  ${e}`).join('\n')}\n`)
        const ids = plan.appended.map((a) => a.question.id)
        context.out(
          `appended ${plural(ids.length, 'question')} to ${goldenFile}${ids.length > 0 ? ` (${ids.join(', ')})` : ''}, ` +
            `recorded as unreviewed: reports warn about them until a person reads them (rag-eval golden review, on a terminal)` +
            '\n',
        )
        return plan.refused.length > 0 ? 1 : 0
      }

      context.out(`reviewer: ${reviewer.name} (from ${reviewer.from})\n`)
      // Then the questions a script accepted unreviewed: a person reads them here, and the reports' warning goes.
      const unread = unreviewedInGolden(golden, goldenFile)
      if (unread.length > 0)
        context.out(
          `${goldenFile} holds ${plural(unread.length, 'question')} accepted unreviewed (--accept-kept): ` +
            `${unread.map((q) => q.id).join(', ')}; shown after the drafts` +
            '\n',
        )
      if (pending.length + unread.length === 0) {
        context.out('nothing to review: every kept draft has a decision\n')
        return 0
      }
      let tally: ReviewTally
      try {
        tally = await withRetrievingSystem(project, config, docs, context, (system) =>
          runReview({
            pending: [...pending, ...unread],
            state,
            stateFile,
            target,
            reviewer: reviewer.name,
            card: async (draft, question, position, of) =>
              renderCard({
                question,
                where: draft.where,
                position,
                of,
                marks: supportMarks(question, docs),
                notes: draft.verdict.reasons.map((r) => `${r.check}: ${r.message}`),
                retrieval: await retrievedPassages(system, question, config.k),
              }),
            prompts: terminalPrompts,
            log: (line) => context.out(`${line}\n`),
          }),
        )
      } catch (error) {
        if (error instanceof Error && error.name === 'ExitPromptError') {
          context.out(`stopped; every decision made so far is saved in ${stateFile}\n`)
          return 130
        }
        throw error
      }
      const after = readGoldenFile(goldenFile, docs, 'golden review').questions
      const left = pendingDrafts(verified.kept, state, after).pending.length + unreviewedInGolden(after, goldenFile).length
      context.out(
        `this session: accepted ${tally.accepted.length}` +
          (tally.accepted.length > 0
            ? ` (${tally.accepted.map((a) => (a.draftId === a.goldenId ? `${a.goldenId} reviewed` : `${a.draftId} as ${a.goldenId}`)).join(', ')})`
            : '') +
          `, rejected ${tally.rejected.length}, skipped ${tally.skipped.length}; ` +
          (left === 0 ? 'every kept draft has a decision' : `${left} still to review: run rag-eval golden review again`) +
          '\n',
      )
      return 0
    } finally {
      release()
    }
  },
})
