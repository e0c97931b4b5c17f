import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { comparable, repetition, sameSetting } from '../../golden/lint/duplicate-questions.ts'
import type { AskedQuestion } from './asked-question.ts'

/** One production question and the near-duplicates merged into it (golden:check's measure), each with how it repeats. */
export interface AskedGroup {
  first: AskedQuestion
  repeats: { asked: AskedQuestion; how: string }[]
  /** The question's place in the files, for a stable order. */
  index: number
}

/** A production question the golden set already asks: no candidate, but its topic is covered. */
export interface GoldenRepeat {
  asked: AskedQuestion
  golden: GoldenQuestion
  how: string
}

export const whereOf = (asked: AskedQuestion) => `${asked.file}:${asked.line}`
export const askedTimes = (group: AskedGroup) => 1 + group.repeats.length
export const flaggedOf = (group: AskedGroup) => [group.first, ...group.repeats.map((r) => r.asked)].filter((a) => a.flag !== null)

/**
 * Production questions merged: one the golden set asks in the same setting (asker, conversation) is a golden repeat;
 * one repeating an earlier production question joins its group.
 */
export function mergeAsked(
  asked: readonly AskedQuestion[],
  golden: readonly GoldenQuestion[],
): { groups: AskedGroup[]; goldenRepeats: GoldenRepeat[] } {
  const goldens = golden.map((g) => ({ g, c: comparable(g.question) }))
  const groups: (AskedGroup & { c: ReturnType<typeof comparable> })[] = []
  const goldenRepeats: GoldenRepeat[] = []
  asked.forEach((a, index) => {
    const c = comparable(a.question)
    for (const { g, c: other } of goldens) {
      const how = sameSetting(a, g) ? repetition(c, other) : null
      if (how !== null) return void goldenRepeats.push({ asked: a, golden: g, how })
    }
    for (const group of groups) {
      const how = sameSetting(a, group.first) ? repetition(c, group.c) : null
      if (how !== null) return void group.repeats.push({ asked: a, how })
    }
    groups.push({ first: a, repeats: [], index, c })
  })
  return { groups: groups.map(({ c: _c, ...group }) => group), goldenRepeats }
}

/** The order candidates are proposed in: negative feedback or a system error first, then the most asked, then file order. */
export function byPriority(a: AskedGroup, b: AskedGroup): number {
  return Number(flaggedOf(b).length > 0) - Number(flaggedOf(a).length > 0) || askedTimes(b) - askedTimes(a) || a.index - b.index
}
