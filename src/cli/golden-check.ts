import { existsSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { loadEvalConfig } from '../config/eval-config.ts'
import { bestChunksOfNoneQuestions } from '../golden/lint/best-chunks.ts'
import { findingsOfLoaderError } from '../golden/lint/loader-findings.ts'
import { lintGoldenSet } from '../golden/lint/lint-golden-set.ts'
import { counts, renderFindingsJson, renderFindingsText, type LintReport } from '../golden/lint/render-findings.ts'
import { parseFloors } from '../golden/lint/type-distribution.ts'
import { loadCorpus } from '../load/corpus.ts'
import { loadGoldenSet } from '../load/golden-set.ts'
import { InputError } from '../load/input-error.ts'
import { runCli } from './run-cli.ts'

const USAGE = `usage: pnpm golden:check [--golden evals/golden-set.json] [--corpus corpus] [--config evals/eval.config.json]
                          [--floors single=50,multi=20,contradiction=8,none=8] [--json]
  Lints a golden set against its corpus: schema and references (the loader), duplicate and
  near-duplicate questions, gold-answer facts no answer doc states, multi questions one doc answers,
  contradiction questions without governingDocId, placeholder answers (errors, exit 1); none questions
  too far from every chunk and types below their floors (warnings, exit 0). A question's notes can
  accept a finding: "lint-ignore: <rule>". Rules and examples: docs/golden-set.md.`

runCli('golden:check', async () => {
  const { values } = parseArgs({
    options: {
      golden: { type: 'string', default: 'evals/golden-set.json' },
      corpus: { type: 'string', default: 'corpus' },
      config: { type: 'string', default: 'evals/eval.config.json' },
      floors: { type: 'string', default: '' },
      json: { type: 'boolean', default: false },
      help: { type: 'boolean' },
    },
    strict: true,
  })
  if (values.help) {
    console.log(USAGE)
    return 0
  }
  const floors = parseFloors(values.floors)
  if (typeof floors === 'string') throw new InputError(floors)
  const config = loadEvalConfig(values.config)
  const docs = loadCorpus(values.corpus)
  if (!existsSync(values.golden)) throw new InputError(`${values.golden}: golden set not found`)

  let report: LintReport
  try {
    const questions = loadGoldenSet(values.golden, docs)
    const bestChunks = await bestChunksOfNoneQuestions(questions, docs, config)
    const findings = lintGoldenSet({ questions, docs, bestChunks, floors })
    report = { goldenSet: values.golden, corpus: values.corpus, questions: questions.length, complete: true, findings }
  } catch (error) {
    if (!(error instanceof InputError)) throw error
    report = { goldenSet: values.golden, corpus: values.corpus, questions: null, complete: false, findings: findingsOfLoaderError(error.message, values.golden) }
  }
  console.log(values.json ? renderFindingsJson(report) : renderFindingsText(report))
  return counts(report).errors > 0 ? 1 : 0
})
