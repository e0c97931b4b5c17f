import { FORMATS } from '../golden/formats/golden-set-formats.ts'
import { exportGoldenSet, notCarried } from '../golden/formats/golden-set-formats.ts'
import { loadGoldenSet } from '../load/golden-set.ts'
import { writeFileAtomic } from '../files/write-file-atomic.ts'
import { file, fileToWrite, folder, oneOf } from './arg-kinds.ts'
import { option } from './args.ts'
import { projectDocuments, projectOrDefaults } from './cli-project.ts'
import { defineCommand } from './command.ts'

export const command = defineCommand({
  usage:
    `usage: rag-eval golden export --format jsonl|ragas|trec --out file [--topics file] [--golden ` +
    `evals/golden-set.json] [--corpus folder]`,
  description: `  Writes the golden set in another tool's format, atomically. jsonl: one {id, question, gold_answer,
  gold_sources, type} per line, with user_context, history and provenance (drafted by which model, reviewed
  by whom, or unreviewed) for the questions that have them. ragas: {user_input, reference, reference_contexts (answer documents'
  text), reference_context_ids}, as JSON Lines when --out ends in .jsonl, else a JSON array. trec: qrels
  "id 0 docId grade" in --out (grade 1 for an ungraded question's answer docs) and the question texts in --topics (default: <out without extension>.topics.json;
  a .tsv path writes qid<TAB>question). --golden and --corpus default to the config's goldenSet and corpus (without a
  config: evals/golden-set.json, corpus/).`,
  options: {
    format: option(oneOf(FORMATS), { required: true }),
    out: option(fileToWrite, { required: true }),
    topics: option(fileToWrite),
    golden: option(file),
    corpus: option(folder),
  },
  run: async ({ values, context }) => {
    const { format } = values
    const project = await projectOrDefaults(context.config, context, values)
    const docs = projectDocuments(project, 'golden export')
    const questions = loadGoldenSet(project.goldenSet, docs)
    const files = exportGoldenSet(format, questions, docs, values.out, values.topics)
    for (const f of files) writeFileAtomic(f.file, f.text)
    const written = files.map((f) => f.file)
    context.out(
      `exported ${questions.length} question${questions.length === 1 ? '' : 's'} from ${project.goldenSet} ` +
        `to ${written.join(' and ')} (${format})\n`,
    )
    context.out(`not carried by ${format}: ${notCarried(format, questions)}\n`)
    return 0
  },
})
