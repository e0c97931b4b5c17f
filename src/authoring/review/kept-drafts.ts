import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { InputError } from '../../contract/input-error.ts'
import { readUtf8File } from '../../files/utf8-text.ts'
import { readRecords } from '../../files/read-records.ts'
import { sha256Of } from '../../common/stable-json.ts'
import { candidateOf } from '../verify/read-candidates.ts'
import { VerdictSchema, type Verdict, type VerdictStatus } from '../verify/verdict-schema.ts'

/** A kept draft of a `golden verify` output, as `golden review` shows it. */
export interface ReviewDraft {
  /** The draft's id in the verified file (d-001...): the key of its decision in the review state. */
  id: string
  /** `verified.jsonl:12` */
  where: string
  question: GoldenQuestion
  /** golden verify's notes on it (golden:check warnings a kept draft may carry). */
  verdict: Verdict
  /** Hash of the draft without its verdict: a decision applies to this d-003, not to a later draft given the id. */
  hash: string
  /** Not a draft: a golden question a script accepted unreviewed (--accept-kept), shown for a person to read. */
  inGolden?: true
}

export interface VerifiedFile {
  kept: ReviewDraft[]
  /** How many lines had each status: only the kept ones are reviewed. */
  counts: Record<VerdictStatus, number>
}

/**
 * The kept drafts of a `golden verify` output, in file order. A line without a verdict, or a kept line that is not a
 * valid question, stops the read, naming its line.
 */
export function readVerifiedFile(file: string): VerifiedFile {
  const text = readUtf8File(
    file,
    `run rag-eval golden draft, then rag-eval golden verify <drafts> --out ${file} (or pass --drafts <file>)`,
  )
  const counts: Record<VerdictStatus, number> = { kept: 0, rejected: 0, undecided: 0 }
  const kept: ReviewDraft[] = []
  const seen = new Map<string, string>()
  for (const { line, value: raw } of readRecords(text, file)) {
    const where = `${file}:${line}`
    const verdictField = typeof raw === 'object' && raw !== null ? (raw as { verdict?: unknown }).verdict : undefined
    const verdict = VerdictSchema.safeParse(verdictField)
    if (!verdict.success)
      throw new InputError(
        `${where}: no verdict (kept, rejected or undecided): review reads golden verify's output; run rag-eval golden verify ${file} first`,
      )
    counts[verdict.data.status]++
    if (verdict.data.status !== 'kept') continue
    const candidate = candidateOf(raw, where, line)
    if (candidate.question === null)
      throw new InputError(`${where}: kept, but not a valid golden-set question: ${candidate.problems.join('; ')}`)
    const first = seen.get(candidate.question.id)
    if (first !== undefined)
      throw new InputError(`${where}: id ${candidate.question.id} is kept twice (first at ${first}); verify the file again`)
    seen.set(candidate.question.id, where)
    kept.push({
      id: candidate.question.id,
      where,
      question: candidate.question,
      verdict: verdict.data,
      hash: sha256Of(candidate.record).slice(0, 16),
    })
  }
  if (counts.kept + counts.rejected + counts.undecided === 0) throw new InputError(`${file}: no verified drafts`)
  return { kept, counts }
}
