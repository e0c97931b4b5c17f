import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { userInfo } from 'node:os'
import { input, select } from '@inquirer/prompts'
import { HumanLabelsSchema, type HumanLabel, type HumanLabels } from '../calibration/human-labels-schema.ts'
import { stratifiedSample } from '../calibration/stratified-sample.ts'
import { InputError } from '../contract/input-error.ts'
import { readReport } from '../report/read-report.ts'
import type { QuestionOutcome, Report } from '../contract/report-schema.ts'
import { readJsonFile } from '../files/read-json-file.ts'
import { writeFileAtomic } from '../files/write-file-atomic.ts'
import { CONTEXTS_FILE, readContextRecords } from '../report/context-sidecar.ts'
import { file, fileToWrite, integer, positiveInteger, text } from './arg-kinds.ts'
import { flag, option } from './args.ts'
import { defineCommand } from './command.ts'
import { projectWith } from './cli-project.ts'
import { displayPath } from '../config/project-config.ts'

const QUESTION = 'Does this answer contain anything not written in the material?'

function readFullReport(path: string): Report {
  const report = readReport(path)
  if (report.tier !== 'full')
    throw new InputError(
      `${path}: a retrieval-tier report has no answers to label; ` +
        `run the full evaluation (\`vitest run --project eval\` or \`rag-eval eval\`)`,
    )
  return report
}

function readLabels(path: string): HumanLabels | null {
  return existsSync(path) ? readJsonFile(path, HumanLabelsSchema, 'fix it, or start over with --redraw') : null
}

function save(path: string, labels: HumanLabels): void {
  const sorted = { ...labels, labels: [...labels.labels].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) }
  writeFileAtomic(path, JSON.stringify(sorted, null, 2) + '\n')
}

/** The text of every context chunk, from contexts.jsonl beside the report: what the system handed its model. */
function contextTexts(reportFile: string): Map<string, string> {
  const records = readContextRecords(join(dirname(reportFile), CONTEXTS_FILE), 'run the evaluation again to write it')
  return new Map([...records.values()].flatMap((context) => context.map((chunk) => [chunk.chunkId, chunk.text] as const)))
}

/** The item as a person reads it: question, the material (context chunks in full), answer, judge's doubts. */
function present(outcome: QuestionOutcome, chunkText: Map<string, string>, position: string): string {
  const material = outcome.context.map(
    (c) => `--- ${c.chunkId}\n${chunkText.get(c.chunkId) ?? '(chunk not found: the corpus changed since the report)'}`,
  )
  const doubts = outcome.unsupportedClaims?.length ? outcome.unsupportedClaims.map((c) => `  - "${c}"`).join('\n') : '  (none)'
  return [
    '',
    `=== ${position} ${outcome.id} [${outcome.type}] ${outcome.question}`,
    '',
    'MATERIAL (the context the answerer was given):',
    material.join('\n') || '(empty context)',
    '',
    `ANSWER:\n${outcome.answer}`,
    '',
    `THE JUDGE'S UNSUPPORTED SENTENCES:\n${doubts}`,
    '',
  ].join('\n')
}

export const command = defineCommand({
  usage: `usage: rag-eval label [--config rag-eval.config.ts] [--report <reports>/latest.json] [--labels <humanLabels>] [--size 10] [--seed 20261129]
                     [--who name] [--redraw] [--list]`,
  description: `  A person labels a stratified sample of the report's answers, one question each: does the answer
  contain anything not written in the material? Saves to --labels after every item, so a session can stop
  and resume; a label whose answer changed since is asked again. --redraw draws a new sample (--size
  questions, --seed); --list prints the sample and stops; --who defaults to $LABELLER, else the user name.
  Interactive: run it in a terminal.`,
  options: {
    config: option(file),
    report: option(file),
    labels: option(fileToWrite),
    size: option(positiveInteger, { default: '10' }),
    seed: option(integer(), { default: '20261129' }),
    who: option(text),
    redraw: flag(),
    list: flag(),
  },
  run: async ({ values, context }) => {
    const { size, seed } = values
    // The project's report, labels and corpus unless named: the labels calibrate the judge of that project.
    const project = await projectWith(values.config ?? context.config, context)
    const reportFile = values.report ?? join(project.reports, 'latest.json')
    const labelsFile = values.labels ?? project.humanLabels
    const report = readFullReport(reportFile)
    const existing = values.redraw ? null : readLabels(labelsFile)
    const sample = existing?.sample.ids
      ? { ids: existing.sample.ids, explanation: [`resuming the sample drawn with seed ${existing.sample.seed}`] }
      : stratifiedSample(report.questions, size, seed)
    const state: HumanLabels = existing ?? {
      sample: { seed, size, report: displayPath(project, reportFile), ids: sample.ids },
      labels: [],
    }
    context.out(`${sample.explanation.join('\n')}\n`)
    if (values.list) return 0
    if (!context.terminal)
      throw new InputError('rag-eval label is interactive: run it in a terminal (or --list to print the sample)')

    const chunkText = contextTexts(reportFile)
    const byId = new Map(report.questions.map((q) => [q.id, q]))
    const todo = state.sample.ids.filter((id) => {
      const done = state.labels.find((l) => l.id === id)
      return !done || done.answer !== byId.get(id)?.answer
    })
    context.out(
      `${state.sample.ids.length - todo.length} of ${state.sample.ids.length} labelled; ${todo.length} to ` +
        `go. Saved after each answer; Ctrl-C to stop and resume later.` +
        '\n',
    )
    for (const [index, id] of todo.entries()) {
      const outcome = byId.get(id)
      if (!outcome || outcome.answer === null) {
        context.out(`${id}: not answered in this report; skipped\n`)
        continue
      }
      context.out(`${present(outcome, chunkText, `[${index + 1}/${todo.length}]`)}\n`)
      const choice = await select({
        message: QUESTION,
        choices: [
          { name: 'yes: something in it is not written in the material', value: 'unsupported' },
          { name: 'no: everything it says is written in the material', value: 'supported' },
          { name: 'skip this one', value: 'skip' },
          { name: 'stop here (progress is saved)', value: 'stop' },
        ],
      })
      if (choice === 'stop') break
      if (choice === 'skip') continue
      const note = await input({
        message: choice === 'unsupported' ? 'Which sentence, and why?' : 'Note (what you checked):',
        default: '',
      })
      const label: HumanLabel = {
        id,
        label: choice,
        note,
        who: values.who ?? context.env.LABELLER ?? userInfo().username,
        when: new Date().toISOString().slice(0, 10),
        answer: outcome.answer,
      }
      state.labels = [...state.labels.filter((l) => l.id !== id), label]
      save(labelsFile, state)
    }
    save(labelsFile, state)
    context.out(`\n${state.labels.length} label(s) in ${labelsFile}\n`)
    return 0
  },
})
