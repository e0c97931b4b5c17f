import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import type { CorpusDocument } from '../../load/corpus.ts'
import { splitSentences } from '../../text/sentences.ts'
import { contentTerms } from '../../text/text-analyzer.ts'
import type { RetrievedPassage } from '../review/review-card.ts'
import type { Answerability } from '../verify/verifier.ts'
import type { AskedQuestion } from './asked-question.ts'
import { askedTimes, byPriority, flaggedOf, mergeAsked, whereOf, type AskedGroup, type GoldenRepeat } from './merge-asked.ts'

/** A question as the system and the judge are asked it: its text, asker and conversation. */
export type AskedQuery = Pick<GoldenQuestion, 'id' | 'question' | 'userContext' | 'history'>

export interface HarvestInput {
  /** Production's questions, already redacted. */
  asked: readonly AskedQuestion[]
  golden: readonly GoldenQuestion[]
  docs: readonly CorpusDocument[]
  /** At most this many candidates, the favoured first. */
  max: number
  harvestedAt: string
  /** The configured system's top k for a question. */
  retrieve: (query: AskedQuery) => Promise<RetrievedPassage[]>
  system: string
  /** The judge (a key is set): which retrieved passage answers the question, if any. */
  judge?: { name: string; answers: (query: AskedQuery, passages: readonly RetrievedPassage[]) => Promise<Answerability> }
}

/** A topic: the document the system ranks first for a question (null: it ranks nothing). */
export interface Topic {
  docId: string | null
  title: string
  groups: AskedGroup[]
  /** Golden questions answered by that document. */
  golden: number
}

export interface Harvest {
  candidates: GoldenQuestion[]
  groups: AskedGroup[]
  goldenRepeats: GoldenRepeat[]
  topics: Topic[]
  /** Groups left out by `max`. */
  leftOut: number
}

const query = (a: AskedQuestion, id: string): AskedQuery => ({
  id,
  question: a.question,
  ...(a.userContext === undefined ? {} : { userContext: a.userContext }),
  ...(a.history === undefined ? {} : { history: a.history }),
})

/** The sentence of the document, within the passage when it can, sharing the most content terms with the question. */
function closestSentence(question: string, doc: CorpusDocument, passage: string): string | undefined {
  const terms = new Set(contentTerms(question))
  const sentences = splitSentences(doc.body).filter((s) => !s.startsWith('#'))
  const inPassage = sentences.filter((s) => passage.includes(s))
  // Shared terms, then a stated figure breaks a tie: production asks for facts.
  const score = (s: string) => contentTerms(s).filter((t) => terms.has(t)).length + (/\d/.test(s) ? 0.5 : 0)
  return (inPassage.length > 0 ? inPassage : sentences).reduce<string | undefined>(
    (best, s) => (best === undefined || score(s) > score(best) ? s : best),
    undefined,
  )
}

const quoted = (text: string, max = 160) => `"${text.length > max ? `${text.slice(0, max - 1)}…` : text}"`

/** Where the candidate came from, how it repeats, what production did, and what to check: the reviewer reads it. */
function notesOf(group: AskedGroup, proposed: string): string {
  const { first } = group
  const flags = flaggedOf(group).map((a) => `${a.flag} at ${whereOf(a)}`)
  return [
    `harvested from ${whereOf(first)}` +
      (group.repeats.length === 0
        ? ''
        : ` (asked ${askedTimes(group)} times; merged: ${group.repeats.map((r) => `${whereOf(r.asked)} ${quoted(r.asked.question)}, ${r.how}`).join('; ')})`),
    ...flags,
    ...(first.answer === undefined ? [] : [`production answered ${quoted(first.answer)}`]),
    ...(first.retrievedIds === undefined ? [] : [`production retrieved ${first.retrievedIds.join(', ') || 'nothing'}`]),
    `proposed: ${proposed}`,
    'REVIEW: the type, the answer documents and the gold answer are proposals; check them against the documents',
  ].join('; ')
}

/** The candidate for a group: the judge's answering passage, else the system's first; none when neither has one. */
async function candidateOf(
  group: AskedGroup,
  id: string,
  passages: readonly RetrievedPassage[],
  input: HarvestInput,
): Promise<GoldenQuestion> {
  const { first } = group
  const judged = input.judge && passages.length > 0 ? await input.judge.answers(query(first, id), passages) : null
  const chosen =
    judged?.verdict === 'answers'
      ? passages.find((p) => p.chunkId === judged.passageId)
      : judged?.verdict === 'does-not-answer'
        ? undefined
        : passages[0]
  const doc = chosen && input.docs.find((d) => d.id === chosen.docId)
  const goldAnswer = doc && closestSentence(first.question, doc, chosen.text)
  const proposed =
    judged?.verdict === 'answers'
      ? `the judge (${input.judge!.name}) reads ${judged.passageId} as answering it (${judged.reason})`
      : judged?.verdict === 'does-not-answer'
        ? `a none question: the judge (${input.judge!.name}) finds no answer in ${input.system}'s top ${passages.length} (${judged.reason})`
        : chosen
          ? `${input.system} ranks ${chosen.chunkId} first; the gold answer is its sentence closest to the question`
          : `a none question: ${input.system} retrieves nothing`
  const caveats = [
    judged?.verdict === 'undecided' ? `the judge could not decide: ${judged.reason}` : '',
    chosen && doc === undefined ? `${chosen.docId} is not a document of the corpus` : '',
  ].filter(Boolean)
  const answered = doc !== undefined && goldAnswer !== undefined
  return {
    id,
    type: answered ? 'single' : 'none',
    ...(first.history === undefined ? {} : { history: first.history }),
    question: first.question,
    answerDocIds: answered ? [doc.id] : [],
    ...(answered ? { goldAnswer } : {}),
    notes: notesOf(group, caveats.length === 0 ? proposed : `${proposed} (${caveats.join('; ')})`),
    ...(first.userContext === undefined ? {} : { userContext: first.userContext }),
    provenance: {
      origin: 'harvested',
      source: first.file,
      line: first.line,
      ...(first.askedAt === undefined ? {} : { askedAt: first.askedAt }),
      harvestedAt: input.harvestedAt,
    },
  }
}

/**
 * Production questions to golden candidates: near-duplicates merged (among themselves, and against the golden set),
 * every question's topic found by the system's retrieval, and the favoured ones (negative feedback, errors, the most
 * asked) proposed as candidates h-001..., with the answer documents the judge or the system gives.
 */
export async function harvest(input: HarvestInput): Promise<Harvest> {
  const { groups, goldenRepeats } = mergeAsked(input.asked, input.golden)
  const ordered = [...groups].sort(byPriority)
  const topics = new Map<string | null, Topic>()
  const candidates: GoldenQuestion[] = []
  for (const [i, group] of ordered.entries()) {
    const id = `h-${String(i + 1).padStart(3, '0')}`
    const passages = await input.retrieve(query(group.first, id))
    const docId = passages[0]?.docId ?? null
    const topic = topics.get(docId) ?? {
      docId,
      title: input.docs.find((d) => d.id === docId)?.title ?? '(nothing retrieved)',
      groups: [],
      golden: input.golden.filter((g) => docId !== null && g.answerDocIds.includes(docId)).length,
    }
    topics.set(docId, topic)
    topic.groups.push(group)
    if (i < input.max) candidates.push(await candidateOf(group, id, passages, input))
  }
  return {
    candidates,
    groups: ordered,
    goldenRepeats,
    topics: [...topics.values()].sort((a, b) => b.groups.length - a.groups.length),
    leftOut: Math.max(0, ordered.length - input.max),
  }
}
