import { formatTable } from '../../common/format-table.ts'
import type { Harvest, Topic } from './harvest.ts'
import { askedTimes, flaggedOf, whereOf } from './merge-asked.ts'
import type { Redactions } from './redact-personal-data.ts'

const topicName = (t: Topic) => (t.docId === null ? t.title : `${t.docId} (${t.title})`)
const asks = (t: Topic) => t.groups.reduce((sum, g) => sum + askedTimes(g), 0)
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`

/** What redaction replaced, by kind and count (never a value). */
export function describeRedactions(redactions: Redactions): string {
  const kinds = [...redactions].map(([kind, n]) => plural(n, kind))
  return kinds.length === 0 ? 'nothing to redact' : `redacted ${kinds.join(', ')}`
}

/** The topics production asks about that no golden question answers (a document the system ranks first for them). */
export const uncovered = (h: Harvest) => h.topics.filter((t) => t.golden === 0)

/**
 * The harvest's report: what was read and redacted, the questions the golden set already asks, the near-duplicates
 * merged (each pair named), the topics production asks about and, last, those the golden set does not cover.
 */
export function renderHarvestReport(h: Harvest, read: readonly string[], redactions: Redactions, out: string): string {
  const gaps = uncovered(h)
  return [
    `# Golden candidates harvested from production`,
    '',
    ...read.map((line) => `- read ${line}`),
    `- ${describeRedactions(redactions)} before anything was written`,
    `- ${plural(h.candidates.length, 'candidate')} in ${out} (ids h-001...), the questions with negative feedback or a system error first` +
      (h.leftOut > 0 ? `; ${h.leftOut} left out by --max` : ''),
    '',
    `## Already in the golden set (${h.goldenRepeats.length})`,
    '',
    ...h.goldenRepeats.map(
      (r) => `- ${whereOf(r.asked)} "${r.asked.question}" is ${r.how} as ${r.golden.id} ("${r.golden.question}")`,
    ),
    '',
    `## Near-duplicates merged (${h.groups.reduce((n, g) => n + g.repeats.length, 0)})`,
    '',
    ...h.groups.flatMap((g) =>
      g.repeats.map(
        (r) => `- ${whereOf(r.asked)} "${r.asked.question}" into ${whereOf(g.first)} "${g.first.question}": ${r.how}`,
      ),
    ),
    '',
    '## Topics asked in production (the document the system ranks first)',
    '',
    formatTable(
      [
        ['topic', 'questions', 'asked', 'negative feedback or errors', 'golden questions'],
        ...h.topics.map((t) => [
          topicName(t),
          String(t.groups.length),
          String(asks(t)),
          String(t.groups.reduce((n, g) => n + flaggedOf(g).length, 0)),
          String(t.golden),
        ]),
      ],
      'markdown',
    ).trimEnd(),
    '',
    `## Not covered by the golden set (${gaps.length})`,
    '',
    ...gaps.map(
      (t) =>
        `- ${topicName(t)}: ${plural(t.groups.length, 'question')} asked ${plural(asks(t), 'time')}, no golden question: ` +
        t.groups.map((g) => `"${g.first.question}"`).join(', '),
    ),
    '',
  ].join('\n')
}
