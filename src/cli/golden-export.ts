import { exportJsonlGold } from '../golden/formats/jsonl-gold.ts'
import { FORMATS, NOT_CARRIED } from '../golden/formats/format-names.ts'
import { exportRagas } from '../golden/formats/ragas.ts'
import { exportQrels } from '../golden/formats/trec-qrels.ts'
import { exportTopics } from '../golden/formats/trec-topics.ts'
import { loadCorpus } from '../load/corpus.ts'
import { loadGoldenSet } from '../load/golden-set.ts'
import { writeFileAtomic } from '../files/write-file-atomic.ts'
import { file, fileToWrite, folder, oneOf } from './arg-kinds.ts'
import { option } from './args.ts'
import { defineCommand } from './command.ts'

/** The default topics path beside a qrels file: runs.qrels -> runs.topics.json. */
function topicsPathFor(out: string): string {
  return `${out.replace(/\.[^./\\]+$/, '')}.topics.json`
}

export const command = defineCommand({
  usage:
    `usage: rag-eval golden export --format jsonl|ragas|trec --out file [--topics file] [--golden ` +
    `evals/golden-set.json] [--corpus corpus]`,
  description: `  Writes the golden set in another tool's format, atomically. jsonl: one {id, question, gold_answer,
  gold_sources, type} per line, with user_context, history and provenance (drafted by which model, reviewed
  by whom, or unreviewed) for the questions that have them. ragas: {user_input, reference, reference_contexts (answer documents'
  text), reference_context_ids}, as JSON Lines when --out ends in .jsonl, else a JSON array. trec: qrels
  "id 0 docId grade" in --out (grade 1 for an ungraded question's answer docs) and the question texts in --topics (default: <out without extension>.topics.json;
  a .tsv path writes qid<TAB>question).`,
  options: {
    format: option(oneOf(FORMATS), { required: true }),
    out: option(fileToWrite, { required: true }),
    topics: option(fileToWrite),
    golden: option(file, { default: 'evals/golden-set.json' }),
    corpus: option(folder, { default: 'corpus' }),
  },
  run: async ({ values, context }) => {
    const { format } = values
    const docs = loadCorpus(values.corpus)
    const questions = loadGoldenSet(values.golden, docs)
    const written: string[] = [values.out]
    if (format === 'jsonl') writeFileAtomic(values.out, exportJsonlGold(questions))
    else if (format === 'ragas') writeFileAtomic(values.out, exportRagas(questions, docs, values.out.endsWith('.jsonl')))
    else {
      const topics = values.topics ?? topicsPathFor(values.out)
      writeFileAtomic(values.out, exportQrels(questions))
      writeFileAtomic(topics, exportTopics(questions, topics.endsWith('.tsv')))
      written.push(topics)
    }
    context.out(
      `exported ${questions.length} question${questions.length === 1 ? '' : 's'} from ${values.golden} ` +
        `to ${written.join(' and ')} (${format})` +
        '\n',
    )
    const governed = questions.filter((q) => q.governingDocId !== undefined).length
    const noted = questions.filter((q) => q.notes !== undefined).length
    const graded = questions.filter((q) => q.relevance !== undefined).length
    const withContext = questions.filter((q) => q.userContext !== undefined).length
    const followUps = questions.filter((q) => q.history !== undefined).length
    const withProvenance = questions.filter((q) => q.provenance !== undefined).length
    // Only said when there is something to lose: the line for a set without them stays as it was.
    const lost = [
      graded > 0 && format !== 'trec' ? `${graded} graded` : '',
      withContext > 0 && format !== 'jsonl' ? `${withContext} userContext` : '',
      followUps > 0 && format !== 'jsonl' ? `${followUps} history` : '',
      withProvenance > 0 && format !== 'jsonl' ? `${withProvenance} provenance` : '',
    ]
      .filter(Boolean)
      .map((item) => `, ${item}`)
      .join('')
    context.out(`not carried by ${format}: ${NOT_CARRIED[format]} (here: ${governed} governingDocId, ${noted} notes${lost})\n`)
    return 0
  },
})
