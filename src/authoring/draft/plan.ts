import type { Chunk } from '../../builtin/chunker.ts'
import type { Retriever } from '../../builtin/retriever.ts'
import type { UserContext } from '../../contract/golden-set-schema.ts'
import type { QuestionType } from '../../contract/question-types.ts'
import type { CorpusDocument } from '../../load/corpus.ts'
import { Mulberry32 } from '../../statistics/seeded-random.ts'
import {
  bestChunkFor,
  chunkHolding,
  contradictionCandidates,
  relatedPairs,
  termStats,
  type ContradictionCandidate,
  type DocumentGroup,
} from './candidates.ts'
import type { ProbeOptions } from './probes.ts'
import { shuffled, stratifiedOrder } from './stratify.ts'

/** One model call of a drafting run: what to draft, from which passages, for whom. */
export interface DraftTask {
  /** Stable across reruns of the same plan (the subject of its model call: the cache and recordings key on it). */
  key: string
  type: QuestionType
  /** The documents the draft must answer from (none: empty). */
  docIds: string[]
  /** The passages the drafter reads, in order. */
  passages: Chunk[]
  /** single: the passage to draft from. */
  focus?: string
  /** single: how many drafts come from the focus passage before this one (a small document is drafted more than once). */
  earlier?: number
  /** none: the document whose subject the question is on. */
  topicDocId?: string
  /** contradiction: the lexical candidate the drafter is asked to confirm. */
  candidate?: ContradictionCandidate
  /** multi: the rare terms its documents share. */
  shared?: string[]
  persona: UserContext | null
  /** A cross-tenant probe: drafted as a single question, then asked by this asker, who may not read its document. */
  probeAsker?: UserContext
}

export interface DraftPlan {
  tasks: DraftTask[]
  /** Per type, why fewer tasks than asked for could be planned (e.g. no related documents). */
  shortfalls: string[]
}

export interface PlanOptions {
  seed: number
  personas: readonly UserContext[]
  /** The built-in retriever over `chunks` (related documents, a none question's neighbours). */
  retriever: Retriever
  /** Cross-tenant probes to plan besides the counts (absent: none). */
  probes?: ProbeOptions
}

/** Contradiction candidates asked about per draft wanted: the drafter confirms only some of the lexical candidates. */
export const CONTRADICTION_OVERSAMPLING = 2

const key = (type: QuestionType | 'probe', n: number) => `${type}-${String(n + 1).padStart(3, '0')}`

function byDoc(chunks: readonly Chunk[]): Map<string, Chunk[]> {
  const map = new Map<string, Chunk[]>()
  for (const chunk of chunks) (map.get(chunk.docId) ?? map.set(chunk.docId, []).get(chunk.docId)!).push(chunk)
  return map
}

/** The focus passage and its neighbours on each side: enough context to read the focus right. */
function around(docChunks: readonly Chunk[], focus: Chunk): Chunk[] {
  const at = docChunks.indexOf(focus)
  return docChunks.slice(Math.max(0, at - 1), at + 2)
}

/** Multi groups spread over the corpus: least-used related pair first, each once; every third a triple when one fits. */
function pickGroups(pairs: readonly DocumentGroup[], count: number, uses: Map<string, number>): DocumentGroup[] {
  const left = [...pairs]
  // Each document's related ones, and where it first appears in the pairs: a third document is found in the time
  // of a few lookups, not a scan of every pair per candidate (quadratic on a thousand documents).
  const neighbours = new Map<string, Map<string, DocumentGroup>>()
  const firstSeen = new Map<string, number>()
  for (const p of pairs)
    for (const [a, b] of [p.docIds, [...p.docIds].reverse()] as [string, string][]) {
      if (!neighbours.has(a)) neighbours.set(a, new Map())
      if (!neighbours.get(a)!.has(b)) neighbours.get(a)!.set(b, p)
      if (!firstSeen.has(a)) firstSeen.set(a, firstSeen.size)
    }
  const related = (a: string, b: string) => neighbours.get(a)?.get(b)
  const groups: DocumentGroup[] = []
  while (groups.length < count && left.length > 0) {
    const use = (p: DocumentGroup) => p.docIds.reduce((sum, id) => sum + (uses.get(id) ?? 0), 0)
    let at = 0
    for (let i = 1; i < left.length; i++) if (use(left[i]!) < use(left[at]!)) at = i
    const [pair] = left.splice(at, 1) as [DocumentGroup]
    let group = pair
    if (groups.length % 3 === 2) {
      const [a, b] = pair.docIds as [string, string]
      const third = [...(neighbours.get(a)?.keys() ?? [])]
        .filter((id) => id !== b && related(id, b) !== undefined)
        .sort((x, y) => firstSeen.get(x)! - firstSeen.get(y)!)[0]
      if (third !== undefined) {
        const shared = pair.shared.filter((t) => related(third, a)!.shared.includes(t) || related(third, b)!.shared.includes(t))
        group = { docIds: [...pair.docIds, third].sort(), shared: shared.length > 0 ? shared : pair.shared, score: pair.score }
      }
    }
    for (const id of group.docIds) uses.set(id, (uses.get(id) ?? 0) + 1)
    groups.push(group)
  }
  return groups
}

/**
 * The drafting plan (docs/golden-set.md, 'How the drafts are planned'). Deterministic for a corpus, counts, seed and
 * personas, so a rerun sends the same requests and the cache answers what was paid for.
 */
export function planDrafts(
  docs: readonly CorpusDocument[],
  chunks: readonly Chunk[],
  counts: Record<QuestionType, number>,
  options: PlanOptions,
): DraftPlan {
  const chunksOf = byDoc(chunks)
  const order = stratifiedOrder(docs, options.seed).filter((d) => (chunksOf.get(d.id)?.length ?? 0) > 0)
  if (order.length === 0) return { tasks: [], shortfalls: ['the corpus has no passage to draft from'] }
  const random = new Mulberry32(options.seed + 1)
  const plan: PlanContext = {
    order,
    chunksOf,
    passageOrder: new Map(order.map((d) => [d.id, shuffled(chunksOf.get(d.id)!, random)])),
    uses: new Map<string, number>(),
    shortfalls: [],
  }
  const tasks = [
    ...singleTasks(plan, counts.single),
    ...(counts.multi > 0 ? multiTasks(plan, counts.multi, options.retriever) : []),
    ...(counts.contradiction > 0 ? contradictionTasks(plan, counts.contradiction) : []),
    ...noneTasks(plan, counts.none, counts.single, options.retriever),
  ]
  const personas = options.personas
  return {
    tasks: [
      ...tasks.map((task, i) => ({ ...task, persona: personas.length > 0 ? personas[i % personas.length]! : null })),
      ...(options.probes && options.probes.count > 0 ? probeTasks(plan, options.probes) : []),
    ],
    shortfalls: plan.shortfalls,
  }
}

/** What the per-type planners share: the stratified order, passages by document, uses so far, shortfalls found. */
interface PlanContext {
  order: readonly CorpusDocument[]
  chunksOf: Map<string, Chunk[]>
  passageOrder: Map<string, Chunk[]>
  uses: Map<string, number>
  shortfalls: string[]
}

type PlannedTask = Omit<DraftTask, 'persona'>

/** A single draft from `doc` in this round: its passages in turn, so a small document is drafted again from another. */
function fromPassage(plan: PlanContext, doc: CorpusDocument, round: number) {
  const rotation = plan.passageOrder.get(doc.id)!
  const focus = rotation[round % rotation.length]!
  const passages = around(plan.chunksOf.get(doc.id)!, focus)
  return {
    type: 'single' as const,
    docIds: [doc.id],
    passages,
    focus: focus.chunkId,
    earlier: Math.floor(round / rotation.length),
  }
}

function singleTasks(plan: PlanContext, count: number): PlannedTask[] {
  const { order, uses } = plan
  return Array.from({ length: count }, (_, i) => {
    const doc = order[i % order.length]!
    uses.set(doc.id, (uses.get(doc.id) ?? 0) + 1)
    return { key: key('single', i), ...fromPassage(plan, doc, Math.floor(i / order.length)) }
  })
}

function multiTasks(plan: PlanContext, count: number, retriever: PlanOptions['retriever']): PlannedTask[] {
  const stats = termStats(plan.order)
  const groups = pickGroups(relatedPairs(plan.order, stats, retriever), count, plan.uses)
  if (groups.length < count)
    plan.shortfalls.push(
      `multi: ${groups.length} of ${count} planned: only ${groups.length} group(s) of documents share rare terms`,
    )
  return groups.map((group, i) => ({
    key: key('multi', i),
    type: 'multi',
    docIds: group.docIds,
    passages: group.docIds.map((id) => bestChunkFor(plan.chunksOf.get(id)!, group.shared)),
    shared: group.shared,
  }))
}

function contradictionTasks(plan: PlanContext, count: number): PlannedTask[] {
  const candidates = contradictionCandidates(plan.order).slice(0, count * CONTRADICTION_OVERSAMPLING)
  if (candidates.length < count)
    plan.shortfalls.push(
      `contradiction: ${candidates.length} candidate pair(s) for ${count} wanted: few sentences of two ` +
        `documents say nearly the same with other numbers`,
    )
  return candidates.map((candidate, i) => ({
    key: key('contradiction', i),
    type: 'contradiction',
    docIds: [...candidate.docIds],
    passages: candidate.docIds.map((id, n) => chunkHolding(plan.chunksOf.get(id)!, candidate.sentences[n]!)),
    candidate,
  }))
}

/** None drafts take their topics from the documents after the single drafts' in the stratified order. */
function noneTasks(plan: PlanContext, count: number, singles: number, retriever: PlanOptions['retriever']): PlannedTask[] {
  const tasks: PlannedTask[] = []
  for (let i = 0; i < count; i++) {
    const doc = plan.order[(singles + i) % plan.order.length]!
    const topic = plan.passageOrder.get(doc.id)![0]!
    const neighbours = retriever
      .search(topic.text, 20)
      .map((s) => s.chunk)
      .filter((c) => c.docId !== doc.id)
      .slice(0, 3)
    tasks.push({ key: key('none', i), type: 'none', docIds: [], passages: [topic, ...neighbours], topicDocId: doc.id })
  }
  return tasks
}

/**
 * Probes: single drafts from documents some asker may not read, each asked by such an asker (persona-less: the
 * drafter writes the question its document answers). The restricted documents in plan order, their askers in turn.
 */
function probeTasks(plan: PlanContext, options: ProbeOptions): DraftTask[] {
  const restricted = plan.order
    .map((doc) => ({ doc, askers: options.askers.filter((asker) => !options.mayRead(asker, doc.id)) }))
    .filter((r) => r.askers.length > 0)
  if (restricted.length === 0) {
    plan.shortfalls.push(
      `probes: 0 of ${options.count} planned: no document is kept from any of ${options.askers.length} asker(s) ` +
        "(front matter access: tenants, or --user-contexts for the config's access rule)",
    )
    return []
  }
  return Array.from({ length: options.count }, (_, i) => {
    const { doc, askers } = restricted[i % restricted.length]!
    const round = Math.floor(i / restricted.length)
    return { key: key('probe', i), ...fromPassage(plan, doc, round), persona: null, probeAsker: askers[round % askers.length]! }
  })
}
