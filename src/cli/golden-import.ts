import { existsSync } from 'node:fs'
import { readGoldenFile } from '../golden/append/golden-file-to-append.ts'
import { FORMATS, NOT_CARRIED } from '../golden/formats/golden-set-formats.ts'
import { importGoldenSet } from '../golden/formats/golden-set-formats.ts'
import { goldenSetText } from '../golden/golden-set-text.ts'
import { schemaReference } from '../golden/schema-reference.ts'
import { QUESTION_TYPES } from '../contract/question-types.ts'
import { InputError } from '../contract/input-error.ts'
import { writeFileAtomic } from '../files/write-file-atomic.ts'
import { file, fileToWrite, folder, oneOf } from './arg-kinds.ts'
import { flag, option } from './args.ts'
import { projectDocuments, projectOrDefaults } from './cli-project.ts'
import { defineCommand } from './command.ts'

export const command = defineCommand({
  usage: `usage: rag-eval golden import <file> --format jsonl|ragas|trec [--topics file] [--out evals/golden-set.json]
                              [--corpus folder] [--allow-unknown] [--force]`,
  description: `  Converts a golden set from another tool's format, checks it with the golden-set schema and the corpus,
  and writes it atomically. Formats: jsonl ({question, gold_answer, gold_sources, type} per line),
  ragas (JSON array or JSONL of {user_input, reference, reference_contexts, reference_context_ids?}),
  trec (qrels "qid iter docno rel" plus --topics: a JSON map id -> question, TSV qid<TAB>question, or
  <top> blocks). Sources not in the corpus are listed with their line and fail the import, unless
  --allow-unknown (then they are dropped, with a warning each). An existing --out file is replaced only
  with --force. --corpus and --out default to the config's corpus and goldenSet (without a config: corpus/,
  evals/golden-set.json).`,
  options: {
    format: option(oneOf(FORMATS), { required: true }),
    topics: option(file),
    out: option(fileToWrite),
    corpus: option(folder),
    'allow-unknown': flag(),
    force: flag(),
  },
  positionals: [{ name: 'file', kind: file }],
  run: async ({ values, positionals: [source], context }) => {
    const { format } = values
    const project = await projectOrDefaults(context.config, context, { corpus: values.corpus, golden: values.out })
    const out = project.goldenSet
    const docs = projectDocuments(project, 'golden import')
    const { questions, warnings } = importGoldenSet(format, source, docs, {
      topics: values.topics,
      allowUnknown: values['allow-unknown'],
    })
    // A golden set with no question yet (rag-eval init --corpus) has nothing to lose.
    if (existsSync(out) && !values.force && readGoldenFile(out, docs, 'golden import').questions.length > 0) {
      throw new InputError(
        `${out} exists: pass --force to replace it, or --out another file (rag-eval golden add appends one question at a time)`,
      )
    }
    writeFileAtomic(out, goldenSetText(questions, schemaReference(out)))
    for (const warning of warnings) context.err(`warning: ${warning}\n`)
    const types = QUESTION_TYPES.map((type) => [type, questions.filter((q) => q.type === type).length] as const)
      .filter(([, n]) => n > 0)
      .map(([type, n]) => `${n} ${type}`)
      .join(', ')
    context.out(
      `imported ${questions.length} question${questions.length === 1 ? '' : 's'} (${types}) from ${source} into ${out}\n`,
    )
    context.out(`the ${format} format does not carry ${NOT_CARRIED[format]}; next: rag-eval golden check --golden ${out}\n`)
    return 0
  },
})
