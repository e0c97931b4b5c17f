import { dirname, join } from 'node:path/posix'
import { CONTEXTS_FILE, readContextRecords } from '../report/context-sidecar.ts'
import { exportRunToRagas } from '../report/ragas-run-export.ts'
import { readReport } from '../report/read-report.ts'
import { writeFileAtomic } from '../files/write-file-atomic.ts'
import { file, fileToWrite, oneOf } from './arg-kinds.ts'
import { option } from './args.ts'
import { defineCommand } from './command.ts'

export const command = defineCommand({
  usage:
    `usage: rag-eval export --format ragas [--report reports/latest.json] [--contexts <report's ` +
    `folder>/${CONTEXTS_FILE}] [--out reports/ragas.jsonl]`,
  description: `  Writes a run for another tool. ragas: RAGAS's EvaluationDataset as JSON Lines (EvaluationDataset.from_jsonl),
  one sample per question: user_input, response, retrieved_contexts (the packed context's texts, read from
  ${CONTEXTS_FILE} beside the report), retrieved_context_ids (their document ids), reference,
  reference_context_ids (the answer documents) and id. RAGAS's IDBasedContextRecall and IDBasedContextPrecision
  on it equal the report's ID-based context recall and precision; its model-judged metrics score
  the same answers as the suite's judge, for a cross-check. A none question's row has reference_context_ids
  [] and, without a gold answer, the expected refusal as its reference; RAGAS drops id on load, so its
  results come back in the file's row order (row i of result.to_pandas() is line i).`,
  options: {
    format: option(oneOf(['ragas'] as const), { required: true }),
    report: option(file, { default: 'reports/latest.json' }),
    contexts: option(file),
    out: option(fileToWrite, { default: 'reports/ragas.jsonl' }),
  },
  run: async ({ values, context }) => {
    const report = readReport(values.report)
    const contextsFile = values.contexts ?? join(dirname(values.report), CONTEXTS_FILE)
    const contexts = readContextRecords(
      contextsFile,
      `run the evaluation (it writes ${CONTEXTS_FILE} beside latest.json), or name the file with --contexts`,
    )
    writeFileAtomic(values.out, exportRunToRagas(report, contexts, contextsFile))
    const none = report.questions.filter((q) => q.type === 'none').length
    context.out(
      `${[
        `wrote ${values.out}: ${report.questions.length} RAGAS samples`,
        `load it with: EvaluationDataset.from_jsonl("${values.out}")`,
        `RAGAS drops "id": its results come back in the file's row order (row i of result.to_pandas() is line i)`,
        ...(none > 0
          ? [
              `${none} none question${none === 1 ? '' : 's'} (reference_context_ids []): keep them out of ID-based context metrics ` +
                `with EvaluationDataset([s for s in dataset if s.reference_context_ids])`,
            ]
          : []),
      ].join('\n')}\n`,
    )
    return 0
  },
})
