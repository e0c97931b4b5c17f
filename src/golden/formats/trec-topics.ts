import { z } from 'zod'
import type { GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { InputError } from '../../contract/input-error.ts'
import { parseJsonText } from '../../files/read-json-file.ts'
import { jsonSpans, lineAt } from '../../files/json-spans.ts'

/** A topics file as a JSON map: question id -> question text. */
export const TopicsMapSchema = z.record(
  z.string().min(1, 'expected a query id'),
  z.string().trim().min(1, 'expected the question text'),
)

/** One topic of a TSV topics file (`qid<TAB>question`, as TREC DL and MS MARCO ship them) or of TREC `<top>` blocks. */
export const TopicSchema = z.object({
  qid: z.string().min(1, 'expected a query id'),
  question: z.string().trim().min(1, 'expected the question text'),
})

export interface Topic {
  qid: string
  question: string
  /** File and line. */
  where: string
}

function fromJson(text: string, file: string): Topic[] {
  const data = parseJsonText(text, file)
  const members = jsonSpans(text).members
  const lineOfKey = (key: string) => lineAt(text, members.find((m) => m.key === key)?.keyStart ?? 0)
  const parsed = TopicsMapSchema.safeParse(data)
  if (!parsed.success) {
    throw new InputError(
      parsed.error.issues
        .map((issue) => {
          const key = issue.path[0]
          return typeof key === 'string'
            ? `${file}:${lineOfKey(key)}: topic ${JSON.stringify(key)}: ${issue.message}`
            : `${file}: expected a JSON object of query id -> question text`
        })
        .join('\n'),
    )
  }
  return Object.entries(parsed.data).map(([qid, question]) => ({ qid, question, where: `${file}:${lineOfKey(qid)}` }))
}

function validated(raw: { qid: string; question: string; line: number }[], file: string, shape: string): Topic[] {
  const problems: string[] = []
  const topics: Topic[] = []
  for (const { qid, question, line } of raw) {
    const parsed = TopicSchema.safeParse({ qid, question })
    if (parsed.success) topics.push({ ...parsed.data, where: `${file}:${line}` })
    else problems.push(`${file}:${line}: ${parsed.error.issues[0]!.message}; expected ${shape}`)
  }
  if (problems.length > 0) throw new InputError(problems.join('\n'))
  return topics
}

function fromTrecBlocks(text: string, file: string): Topic[] {
  const raw = [...text.matchAll(/<top>([\s\S]*?)<\/top>/gi)].map((block) => {
    const body = block[1]!
    const num = /<num>\s*(?:Number:)?\s*(\S+)/i.exec(body)?.[1] ?? ''
    const title = /<title>\s*(?:Topic:)?\s*([\s\S]*?)\s*(?=<\w+>|$)/i.exec(body)?.[1]?.replace(/\s+/g, ' ') ?? ''
    return { qid: num, question: title, line: lineAt(text, block.index) }
  })
  return validated(raw, file, '<num> and <title> in each <top> block')
}

function fromTsv(text: string, file: string): Topic[] {
  const noTab: string[] = []
  const raw = text.split(/\r?\n/).flatMap((line, index) => {
    if (line.trim() === '') return []
    const tab = line.indexOf('\t')
    if (tab < 0) noTab.push(`${file}:${index + 1}: no tab between query id and question; expected "qid<TAB>question"`)
    return tab < 0 ? [] : [{ qid: line.slice(0, tab).trim(), question: line.slice(tab + 1), line: index + 1 }]
  })
  if (noTab.length > 0) throw new InputError(noTab.join('\n'))
  return validated(raw, file, '"qid<TAB>question"')
}

/**
 * Question texts of a topics file in file order, with lines: a JSON map, TREC `<top>` blocks (`<num>`, `<title>`;
 * `<desc>` and `<narr>` are no user's question) or `qid<TAB>question` lines. A repeated id is an error naming both.
 */
export function parseTopics(text: string, file: string): Topic[] {
  const trimmed = text.trimStart()
  const topics = trimmed.startsWith('{')
    ? fromJson(text, file)
    : /<top>/i.test(text)
      ? fromTrecBlocks(text, file)
      : fromTsv(text, file)
  const seen = new Map<string, string>()
  const problems: string[] = []
  for (const topic of topics) {
    const earlier = seen.get(topic.qid)
    if (earlier !== undefined)
      problems.push(`${topic.where}: query ${JSON.stringify(topic.qid)} is given twice (first at ${earlier})`)
    seen.set(topic.qid, topic.where)
  }
  if (problems.length > 0) throw new InputError(problems.join('\n'))
  return topics
}

/**
 * A topics file: a JSON map id -> question (lossless), or with `tsv` the `qid<TAB>question` lines most TREC tools
 * read (whitespace runs become one space).
 */
export function exportTopics(questions: readonly GoldenQuestion[], tsv: boolean): string {
  if (tsv) return questions.map((q) => `${q.id}\t${q.question.replace(/\s+/g, ' ').trim()}\n`).join('')
  return JSON.stringify(Object.fromEntries(questions.map((q) => [q.id, q.question])), null, 2) + '\n'
}
