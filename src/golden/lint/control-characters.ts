import { CONTROL_CHARACTERS, type GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { finding, type Finding } from './finding.ts'

/** A question or gold answer holding an invisible control character (warning): a form feed in text copied from a PDF. */
export function controlCharacters(questions: readonly GoldenQuestion[]): Finding[] {
  return questions.flatMap((q) =>
    (['question', 'goldAnswer'] as const).flatMap((field) => {
      const at = q[field]?.search(CONTROL_CHARACTERS) ?? -1
      if (at === -1) return []
      const code = `U+${q[field]!.charCodeAt(at).toString(16).toUpperCase().padStart(4, '0')}`
      return [
        finding(
          'control-character',
          q.id,
          `${field} holds the control character ${code} at character ${at + 1}`,
          'replace it with a space (text copied from a PDF carries page breaks as form feeds)',
        ),
      ]
    }),
  )
}
