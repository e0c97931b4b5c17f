import { InputError } from '../contract/input-error.ts'
import type { ContextRecord } from './context-sidecar.ts'
import type { Report } from '../contract/report-schema.ts'
import { RAGAS_NONE_REFERENCE } from '../contract/ragas-none-reference.ts'

/**
 * A run as RAGAS's EvaluationDataset JSON Lines (`EvaluationDataset.from_jsonl`), one SingleTurnSample
 * per question: user_input (the question), response (the answer), retrieved_contexts (the packed
 * context's chunk texts, in packing order) with retrieved_context_ids (each chunk's document id, so they
 * compare with the references), reference (the gold answer; for a none question without one,
 * RAGAS_NONE_REFERENCE, the refusal expected) and reference_context_ids (the answer documents, [] for a
 * none question). Fields that are null here are left out, as RAGAS's own to_jsonl leaves out None. `id` is
 * the question id for people reading the file: RAGAS drops it on load, and its results come back in the
 * file's row order, so row i of `result.to_pandas()` is line i's question. RAGAS's IDBasedContextRecall and
 * IDBasedContextPrecision on these samples are the report's ID-based context recall and precision.
 *
 * `contexts` is the report's contexts.jsonl: every question must be there with the same chunks as in
 * the report, else the two files are from different runs and the export refuses.
 */
export function exportRunToRagas(
  report: Report,
  contexts: ReadonlyMap<string, ContextRecord['context']>,
  contextsFile: string,
): string {
  return report.questions
    .map((q) => {
      const context = contexts.get(q.id)
      const expected = q.context.map((entry) => entry.chunkId).join(', ')
      if (context === undefined)
        throw new InputError(
          `${contextsFile}: no context for question ${q.id}; it is not from the run of the report: ` +
            `run the evaluation again (it writes both)`,
        )
      if (context.map((entry) => entry.chunkId).join(', ') !== expected) {
        throw new InputError(
          `${contextsFile}: question ${q.id} has context [${context.map((e) => e.chunkId).join(', ')}], ` +
            `the report [${expected}]; it is not from the run of the report: run the evaluation again (it writes both)`,
        )
      }
      const sample = {
        id: q.id,
        user_input: q.question,
        ...(q.answer === null ? {} : { response: q.answer }),
        retrieved_contexts: context.map((entry) => entry.text),
        retrieved_context_ids: context.map((entry) => entry.docId),
        ...(q.goldAnswer !== null ? { reference: q.goldAnswer } : q.type === 'none' ? { reference: RAGAS_NONE_REFERENCE } : {}),
        reference_context_ids: q.answerDocIds,
      }
      return JSON.stringify(sample) + '\n'
    })
    .join('')
}
