import { stripCitationMarkers } from '../contract/citation-markers.ts'
import { InputError } from '../contract/input-error.ts'
import type { ContextRecord } from './context-sidecar.ts'
import type { Report } from '../contract/report-schema.ts'
import { RAGAS_NONE_REFERENCE } from '../contract/ragas-none-reference.ts'

/**
 * A run as RAGAS JSON Lines, a sample per question (docs/your-pipeline.md); null fields are left out, as RAGAS's
 * to_jsonl does. `contexts` must hold every question's chunks as the report does, else the runs differ: refused.
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
        ...(q.answer === null ? {} : { response: stripCitationMarkers(q.answer) }),
        retrieved_contexts: context.map((entry) => entry.text),
        retrieved_context_ids: context.map((entry) => entry.docId),
        ...(q.goldAnswer !== null ? { reference: q.goldAnswer } : q.type === 'none' ? { reference: RAGAS_NONE_REFERENCE } : {}),
        reference_context_ids: q.answerDocIds,
      }
      return JSON.stringify(sample) + '\n'
    })
    .join('')
}
