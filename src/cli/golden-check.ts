import { runKnobs } from '../config/project-config.ts'
import { checkGoldenFile } from '../golden/lint/check-golden-file.ts'
import { accessDecision } from '../load/access-rules.ts'
import { counts, renderFindingsJson, renderFindingsText } from '../golden/lint/render-findings.ts'
import { FLOORS_EXPECTED, parseFloors } from '../golden/lint/type-distribution.ts'
import { file, folder, kind } from './arg-kinds.ts'
import { flag, option } from './args.ts'
import { projectDocuments, projectWith } from './cli-project.ts'
import { defineCommand } from './command.ts'

export const command = defineCommand({
  usage: `usage: rag-eval golden check [--config rag-eval.config.ts] [--golden file] [--corpus folder]
                           [--floors single=50,multi=20,contradiction=8,none=8] [--json]`,
  description: `  Lints a golden set (the config's goldenSet, or --golden) against its corpus (the config's, or --corpus): schema and references (the loader), duplicate and
  near-duplicate questions, gold-answer facts no answer doc states, multi questions one doc answers,
  contradiction questions without governingDocId, placeholder answers (errors, exit 1); none questions
  too far from every chunk and types below their floors (warnings, exit 0). A question's notes can
  accept a finding: "lint-ignore: <rule>". Rules and examples: docs/golden-set.md.`,
  options: {
    config: option(file),
    golden: option(file),
    corpus: option(folder),
    // Per-type floors; the types not named keep their default floor.
    floors: option(kind(FLOORS_EXPECTED, parseFloors), { default: '' }),
    json: flag(),
  },
  run: async ({ values, context }) => {
    const project = await projectWith(values.config ?? context.config, context, values)
    const config = runKnobs(project, context.env)
    // corpus: null (the system owns its documents): the rules that read the documents' text are skipped, and said so.
    const docs = project.corpus === null ? null : projectDocuments(project, 'golden check')
    const corpus = project.corpus === null ? '(none: corpus is null)' : project.corpus.dir
    const report = await checkGoldenFile({
      goldenSet: project.goldenSet,
      docs,
      corpus,
      source: project.source,
      config,
      floors: values.floors,
      root: project.root,
      mayRead: accessDecision(project.access, project.corpus && docs ? { dir: project.corpus.dir, documents: docs } : null),
    })
    context.out(`${values.json ? renderFindingsJson(report) : renderFindingsText(report)}\n`)
    return counts(report).errors > 0 ? 1 : 0
  },
})
