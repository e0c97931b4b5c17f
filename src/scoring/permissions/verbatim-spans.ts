import { stripCitationMarkers } from '../../contract/citation-markers.ts'
import { tokenizeWords } from '../../text/text-analyzer.ts'

/** Words in a run that counts as copied: long enough that two texts share it by copying, not by chance. */
export const VERBATIM_WORDS = 10

/**
 * Each run of `length` consecutive words (tokenizeWords: lower-cased, punctuation and `[n]` markers aside), joined by
 * a space; with `starts`, only the runs starting with one of those words (a corpus scan builds no other string).
 */
function wordRuns(text: string, length: number, starts?: ReadonlySet<string>): string[] {
  const words = tokenizeWords(text)
  const runs: string[] = []
  for (let i = 0; i + length <= words.length; i++)
    if (starts === undefined || starts.has(words[i]!)) runs.push(words.slice(i, i + length).join(' '))
  return runs
}

/**
 * The runs of VERBATIM_WORDS words of the answers that some document repeats, each with the documents that hold it
 * (pure). One pass over the documents for every answer of a run: only a run some answer has is ever kept.
 */
export function verbatimSpanOwners(
  answers: readonly string[],
  documents: Iterable<{ docId: string; text: string }>,
  length = VERBATIM_WORDS,
): Map<string, Set<string>> {
  const owners = new Map<string, Set<string>>()
  for (const answer of answers) for (const run of wordRuns(stripCitationMarkers(answer), length)) owners.set(run, new Set())
  if (owners.size === 0) return owners
  const starts = new Set([...owners.keys()].map((run) => run.split(' ', 1)[0]!))
  for (const { docId, text } of documents) for (const run of wordRuns(text, length, starts)) owners.get(run)?.add(docId)
  return owners
}

/**
 * The documents whose distinctive text the answer repeats: a run of VERBATIM_WORDS words of the answer that the
 * document holds and no document the asker may read holds (a run a readable document also has could come from it).
 */
export function copiedDocuments(
  answer: string,
  owners: ReadonlyMap<string, ReadonlySet<string>>,
  mayRead: (docId: string) => boolean,
  length = VERBATIM_WORDS,
): string[] {
  const copied = new Set<string>()
  for (const run of wordRuns(stripCitationMarkers(answer), length)) {
    const holders = [...(owners.get(run) ?? [])]
    if (!holders.some(mayRead)) holders.forEach((docId) => copied.add(docId))
  }
  return [...copied].sort()
}
