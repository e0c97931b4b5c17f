import { AttackSetSchema, type AttackSet } from '../contract/attack-set-schema.ts'
import { InputError } from '../contract/input-error.ts'
import { parseJsonText } from '../files/read-json-file.ts'
import { readUtf8File } from '../files/utf8-text.ts'

/** Reads and validates an attack set (`rag-eval attacks` writes it); a problem names the file, the question and the field. */
export function loadAttackSet(file: string): AttackSet {
  const data = parseJsonText(readUtf8File(file, 'expected the attack set here (attackSet in rag-eval.config.ts)'), file)
  const parsed = AttackSetSchema.safeParse(data)
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]!
  const [, index, ...field] = issue.path
  const raw = typeof index === 'number' ? (data as { questions: { id?: unknown }[] }).questions[index] : undefined
  const who = typeof raw?.id === 'string' ? `question ${raw.id}, ` : typeof index === 'number' ? `question #${index + 1}, ` : ''
  const where = typeof index === 'number' ? field : issue.path
  throw new InputError(`${file}: ${who}field "${where.join('.') || '(root)'}": ${issue.message}`)
}
