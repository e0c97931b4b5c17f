import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { finding, type Finding } from './finding.ts'

/** What `pnpm golden:import` writes when the source format carries no answer (TREC qrels). */
export const PLACEHOLDER_GOLD_ANSWER = 'TODO: write the gold answer from the answer documents.'

const PLACEHOLDER = /^\s*(?:TODO|TBD|FIXME|XXX)\b/i

/** A gold answer starting with TODO, TBD, FIXME or XXX (error): importers write one where a format has no answers. */
export function placeholderGoldAnswers(questions: readonly GoldenQuestion[]): Finding[] {
  return questions
    .filter((q) => q.goldAnswer !== undefined && PLACEHOLDER.test(q.goldAnswer))
    .map((q) =>
      finding(
        'placeholder-gold-answer',
        q.id,
        `goldAnswer is a placeholder: "${q.goldAnswer}"`,
        `write the answer in one or two sentences, using only facts ${q.answerDocIds.join(', ')} ` +
          `state${q.answerDocIds.length === 1 ? 's' : ''}`,
      ),
    )
}
