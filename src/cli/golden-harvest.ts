import { existsSync } from 'node:fs'
import { runKnobs } from '../config/project-config.ts'
import { InputError } from '../contract/input-error.ts'
import { writeFileAtomic } from '../files/write-file-atomic.ts'
import { harvest } from '../authoring/harvest/harvest.ts'
import { PRODUCTION_FORMATS, readProductionFile } from '../authoring/harvest/read-production.ts'
import { redactAsked, type Redactions } from '../authoring/harvest/redact-personal-data.ts'
import { describeRedactions, renderHarvestReport, uncovered } from '../authoring/harvest/render-harvest.ts'
import { topChunks } from '../authoring/verify/system-retriever.ts'
import { readGoldenFile } from '../golden/append/golden-file-to-append.ts'
import { file, fileToWrite, folder, oneOf, positiveInteger } from './arg-kinds.ts'
import { flag, option } from './args.ts'
import { projectDocuments, projectWith } from './cli-project.ts'
import { defineCommand } from './command.ts'
import { openVerifier } from './golden-verify.ts'
import { withRetrievingSystem } from './retrieving-system.ts'

export const command = defineCommand({
  usage: `usage: rag-eval golden harvest <file>... [--format auto|log|otel|phoenix|langsmith] [--out evals/harvested.jsonl]
                             [--report evals/harvest-report.md] [--max 50] [--force]
                             [--config rag-eval.config.ts] [--golden file] [--corpus folder]`,
  description: `  Golden candidates from production questions: JSON Lines logs, OpenTelemetry GenAI spans (OTLP JSON), Phoenix
  and LangSmith dataset exports (CSV or JSON Lines; docs/golden-set.md maps their fields). Secrets (the config's
  and API-key shapes), emails and phone numbers are redacted as the files are read, before anything is sent or
  written. Near-duplicates are merged, among themselves and with the golden set (each pair named); the questions
  with negative feedback or a system error come first, then the most asked. Each candidate gets the answer
  document the configured system ranks first (EVAL_MODE=live: the judge picks the passage that answers it, or
  makes it a none question) and is written as a draft (provenance harvested: file, line, when) for golden verify
  and golden review. --report lists the topics production asks about that no golden question covers.`,
  options: {
    format: option(oneOf(PRODUCTION_FORMATS), { default: 'auto' }),
    out: option(fileToWrite, { default: 'evals/harvested.jsonl' }),
    report: option(fileToWrite, { default: 'evals/harvest-report.md' }),
    max: option(positiveInteger, { default: '50' }),
    force: flag(),
    config: option(file),
    golden: option(file),
    corpus: option(folder),
  },
  positionals: [{ name: 'file', kind: file, rest: true }],
  run: async ({ values, positionals: [files], context }) => {
    if (existsSync(values.out) && !values.force)
      throw new InputError(`${values.out} exists: pass --force to replace it, or --out another file`)
    const project = await projectWith(values.config ?? context.config, context, values)
    const config = runKnobs(project, context.env)
    const docs = projectDocuments(project, 'golden harvest')
    const golden = readGoldenFile(project.goldenSet, docs, 'golden harvest').questions
    const judge = config.mode === 'offline' ? null : await openVerifier(project, config, context, 'golden harvest')
    // Opened first: an HTTP system registers its secrets, so reading redacts them too.
    await withRetrievingSystem(project, config, docs, context, async (system) => {
      const redactions: Redactions = new Map()
      const read: string[] = []
      const asked = files.flatMap((name) => {
        const questions = readProductionFile(name, values.format).map((a) => redactAsked(a, redactions))
        read.push(`${name}: ${questions.length} question${questions.length === 1 ? '' : 's'}`)
        return questions
      })
      const systemName = `the configured system (${system.name ?? 'unnamed'})`
      const result = await harvest({
        asked,
        golden,
        docs,
        max: values.max,
        harvestedAt: new Date().toISOString(),
        retrieve: (query) => topChunks(system, query, config.k),
        system: systemName,
        ...(judge && {
          judge: {
            name: judge.verifier.name,
            answers: (query, passages) =>
              judge.verifier.answers(
                { ...query, type: 'none', answerDocIds: [] },
                passages.map((p) => ({ id: p.chunkId, text: p.text })),
              ),
          },
        }),
      })
      const { candidates } = result
      writeFileAtomic(values.out, candidates.map((q) => JSON.stringify(q)).join('\n') + (candidates.length > 0 ? '\n' : ''))
      writeFileAtomic(values.report, renderHarvestReport(result, read, redactions, values.out))
      const merged = result.groups.reduce((n, g) => n + g.repeats.length, 0)
      context.out(
        [
          `golden harvest: ${asked.length} production questions (${read.join('; ')}); ${describeRedactions(redactions)}`,
          `  ${result.goldenRepeats.length} already in the golden set, ${merged} near-duplicates merged, ` +
            `${uncovered(result).length} of ${result.topics.length} topics with no golden question`,
          `wrote ${candidates.length} candidate${candidates.length === 1 ? '' : 's'} to ${values.out} and the report to ` +
            `${values.report}; check them with rag-eval golden verify ${values.out}, then rag-eval golden review`,
          ...(judge?.usage() ? [judge.usage()!] : []),
          '',
        ].join('\n'),
      )
    })
    return 0
  },
})
