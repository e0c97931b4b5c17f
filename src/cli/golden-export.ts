import { parseArgs } from 'node:util'
import { exportJsonlGold } from '../golden/formats/jsonl-gold.ts'
import { formatName, NOT_CARRIED } from '../golden/formats/format-names.ts'
import { exportRagas } from '../golden/formats/ragas.ts'
import { exportQrels } from '../golden/formats/trec-qrels.ts'
import { exportTopics } from '../golden/formats/trec-topics.ts'
import { loadCorpus } from '../load/corpus.ts'
import { loadGoldenSet } from '../load/golden-set.ts'
import { InputError } from '../load/input-error.ts'
import { writeFileAtomic } from '../report/write-report.ts'
import { runCli } from './run-cli.ts'

const USAGE = `usage: pnpm golden:export --format jsonl|ragas|trec --out file [--topics file] [--golden evals/golden-set.json] [--corpus corpus]
  Writes the golden set in another tool's format, atomically. jsonl: one {id, question, gold_answer,
  gold_sources, type} per line. ragas: {user_input, reference, reference_contexts (answer documents'
  text), reference_context_ids}, as JSON Lines when --out ends in .jsonl, else a JSON array. trec: qrels
  "id 0 docId 1" in --out and the question texts in --topics (default: <out without extension>.topics.json;
  a .tsv path writes qid<TAB>question).`

/** The default topics path beside a qrels file: runs.qrels -> runs.topics.json. */
function topicsPathFor(out: string): string {
  return `${out.replace(/\.[^./\\]+$/, '')}.topics.json`
}

runCli('golden:export', async () => {
  const { values } = parseArgs({
    options: {
      format: { type: 'string' },
      out: { type: 'string' },
      topics: { type: 'string' },
      golden: { type: 'string', default: 'evals/golden-set.json' },
      corpus: { type: 'string', default: 'corpus' },
      help: { type: 'boolean' },
    },
    strict: true,
  })
  if (values.help) {
    console.log(USAGE)
    return 0
  }
  const format = formatName(values.format)
  if (values.out === undefined) throw new InputError('--out is required: the file to write')
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
  console.log(`exported ${questions.length} question${questions.length === 1 ? '' : 's'} from ${values.golden} to ${written.join(' and ')} (${format})`)
  const governed = questions.filter((q) => q.governingDocId !== undefined).length
  const noted = questions.filter((q) => q.notes !== undefined).length
  console.log(`not carried by ${format}: ${NOT_CARRIED[format]} (here: ${governed} governingDocId, ${noted} notes)`)
  return 0
})
