import type { FunnelEntry } from '../contract/question-outcome-schema.ts'

/** What the funnel reads of a question's run: the stages' rankings in order, the final ranking and the context. */
export interface FunnelInput {
  stages: readonly { name: string; ranked: readonly { docId: string }[] }[]
  ranked: readonly { docId: string }[]
  context: readonly { chunkId: string; docId: string }[]
}

/** The stages' names with each repeat numbered from its second occurrence: retrieve, retrieve#2, rerank. */
export function numberStages(names: readonly string[]): string[] {
  const seen = new Map<string, number>()
  return names.map((name) => {
    const n = (seen.get(name) ?? 0) + 1
    seen.set(name, n)
    return n === 1 ? name : `${name}#${n}`
  })
}

const rankIn = (ranked: readonly { docId: string }[], docId: string) => ranked.findIndex((c) => c.docId === docId) + 1

/**
 * Where each answer document was lost (docs/metrics.md), walking back from the answer: in the context, `misstated`
 * when a claim drawn from one of its chunks is unsupported, `survived` when its claims are all supported, `unused`
 * when none is drawn from it (`in-context` when no answer was judged: `claims` null); else `budget` when the final
 * ranking holds it; else cut by the stage after the last stage that held it (the final ranking, named `ranked`, when
 * that was the last stage); else `never-retrieved`. `rank`: its best rank in the last ranking that held it.
 */
export function lossFunnel(
  docIds: readonly string[],
  run: FunnelInput,
  claims: readonly { chunkId: string | null; verdict: string }[] | null,
): FunnelEntry[] {
  const names = numberStages(run.stages.map((s) => s.name))
  const steps = [...run.stages.map((s, i) => ({ name: names[i]!, ranked: s.ranked })), { name: 'ranked', ranked: run.ranked }]
  return docIds.map((docId): FunnelEntry => {
    const last = steps.findLastIndex((step) => rankIn(step.ranked, docId) > 0)
    const rank = last === -1 ? {} : { rank: rankIn(steps[last]!.ranked, docId) }
    const chunks = new Set(run.context.filter((c) => c.docId === docId).map((c) => c.chunkId))
    if (chunks.size > 0) {
      if (claims === null) return { docId, lost: 'in-context', ...rank }
      const drawn = claims.filter((c) => c.chunkId !== null && chunks.has(c.chunkId))
      const lost = drawn.length === 0 ? 'unused' : drawn.some((c) => c.verdict === 'unsupported') ? 'misstated' : 'survived'
      return { docId, lost, ...rank }
    }
    if (last === steps.length - 1) return { docId, lost: 'budget', ...rank }
    if (last === -1) return { docId, lost: 'never-retrieved' }
    return { docId, lost: 'stage', stage: steps[last + 1]!.name, ...rank }
  })
}
