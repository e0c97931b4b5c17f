import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { registerSecret } from '../../common/secrets.ts'
import { useTempDirs } from '../../testing/use-temp-dirs.ts'
import { readProductionFile } from './read-production.ts'
import { redactAsked, redactText, type Redactions } from './redact-personal-data.ts'

const temp = useTempDirs()
const FIXTURES = 'fixtures/golden-harvest'

function written(name: string, text: string): string {
  const file = join(temp.make('harvest-read-'), name)
  writeFileSync(file, text)
  return file
}

describe('the production formats, each read to the questions it holds', () => {
  it('a JSON Lines log: question, asker, conversation, answer, retrieved ids, feedback, error, time', () => {
    const file = `${FIXTURES}/production-log.jsonl`
    const asked = readProductionFile(file, 'auto')
    expect(asked).toHaveLength(8)
    expect(asked[0]).toEqual({
      question: 'How long does an API token stay valid before it expires?',
      userContext: undefined,
      history: undefined,
      answer: 'Tokens last 30 days.',
      retrievedIds: ['policies/access-reviews'],
      flag: 'negative feedback',
      askedAt: '2026-11-30T10:02:11Z',
      file,
      line: 1,
    })
    // "upstream timeout" is a system error; a score of 0.9 is positive, 0.2 negative (below 0.5).
    expect(asked.map((a) => a.flag)).toEqual([
      'negative feedback',
      null,
      'system error',
      null,
      null,
      null,
      null,
      'negative feedback',
    ])
    expect(asked[7]!.userContext).toEqual({ role: 'owner', contact: 'li.wei@example.org' })
    expect(asked[7]!.history?.map((t) => t.role)).toEqual(['user', 'assistant'])
  })

  it('OTLP JSON: the last user message of gen_ai.input.messages or of gen_ai.*.message events, at the span line', () => {
    const file = `${FIXTURES}/otel-spans.json`
    expect(readProductionFile(file, 'auto')).toEqual([
      {
        question: 'How long does the download link of an export stay valid?',
        history: undefined,
        // Status code 2 is ERROR; 1764583200 s after the epoch is 2025-12-01 10:00 UTC.
        flag: 'system error',
        askedAt: '2025-12-01T10:00:00.000Z',
        file,
        line: 9,
      },
      {
        question: 'Which file formats can an export use?',
        history: [
          { role: 'user', content: 'Can I export my data?' },
          { role: 'assistant', content: 'Yes, from the Exports page.' },
        ],
        flag: null,
        askedAt: '2025-12-01T11:00:00.000Z',
        file,
        line: 31,
      },
    ])
  })

  it('OTLP JSON Lines with gen_ai.input.messages structured (arrayValue of kvlistValue), not as a JSON string', () => {
    const kv = (key: string, value: object) => ({ key, value })
    const text = (content: string) => ({
      kvlistValue: { values: [kv('type', { stringValue: 'text' }), kv('content', { stringValue: content })] },
    })
    const message = (role: string, content: string) => ({
      kvlistValue: { values: [kv('role', { stringValue: role }), kv('parts', { arrayValue: { values: [text(content)] } })] },
    })
    const span = {
      attributes: [
        kv('gen_ai.input.messages', {
          arrayValue: { values: [message('user', 'Hi'), message('assistant', 'Hello'), message('user', 'Who signs?')] },
        }),
      ],
    }
    const line = JSON.stringify({ resourceSpans: [{ scopeSpans: [{ spans: [span] }] }] })
    const file = written('spans.jsonl', `${line}\n${line.replace('Who signs?', 'And who approves?')}\n`)
    expect(readProductionFile(file, 'otel').map((a) => [a.question, a.history, a.line])).toEqual([
      [
        'Who signs?',
        [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello' },
        ],
        1,
      ],
      [
        'And who approves?',
        [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: 'Hello' },
        ],
        2,
      ],
    ])
  })

  it("Phoenix's CSV (input_/output_/metadata_ columns) and LangSmith's JSON Lines (inputs, outputs, metadata)", () => {
    const phoenix = `${FIXTURES}/phoenix-dataset.csv`
    expect(readProductionFile(phoenix, 'auto').map((a) => [a.question, a.answer, a.flag, a.line])).toEqual([
      ['How long do deleted projects stay recoverable, in days?', '30 days', 'negative feedback', 2],
      ['Who reviews access to a project, and how often?', 'The project owner, every quarter.', null, 3],
    ])
    const langsmith = `${FIXTURES}/langsmith-dataset.jsonl`
    expect(readProductionFile(langsmith, 'auto').map((a) => [a.question, a.flag, a.askedAt])).toEqual([
      ['How long is the audit log of access reviews kept?', 'negative feedback', '2026-11-28T16:20:00Z'],
      ['Which files can the bulk API accept?', null, '2026-11-29T08:00:00Z'],
    ])
    // Phoenix's JSON Lines and LangSmith's CSV (JSON columns) hold the same examples.
    const phoenixJsonl = written(
      'p.jsonl',
      '{"id": "e1", "input": {"query": "Who signs?"}, "output": {}, "metadata": {"feedback": 0.1}}\n',
    )
    expect(readProductionFile(phoenixJsonl, 'phoenix').map((a) => [a.question, a.flag])).toEqual([
      ['Who signs?', 'negative feedback'],
    ])
    const langsmithCsv = written(
      'l.csv',
      'inputs,outputs\n"{""question"": ""Who, exactly, signs?""}","{""answer"": ""The owner""}"\n',
    )
    expect(readProductionFile(langsmithCsv, 'auto').map((a) => [a.question, a.answer, a.line])).toEqual([
      ['Who, exactly, signs?', 'The owner', 2],
    ])
  })

  it('a record its format refuses fails the file, naming the file, the line and what is expected', () => {
    const log = written('log.jsonl', '{"question": "Fine?"}\n{"answer": "no question"}\n{"question": "x", "feedback": "meh"}\n')
    expect(() => readProductionFile(log, 'log')).toThrow(
      `${log}:2: field "question": missing\n${log}:3: field "feedback": Invalid input`,
    )
    const spans = written(
      'spans.jsonl',
      '{"resourceSpans": [{"scopeSpans": [{"spans": [{"attributes": [{"key": "gen_ai.input.messages", "value": {"stringValue": "[{oops"}}]}]}]}]}\n',
    )
    expect(() => readProductionFile(spans, 'auto')).toThrow(new RegExp(`^${spans}:1: gen_ai.input.messages is not JSON`))
    // A quoted field over two lines: the next row starts on line 4.
    const phoenix = written('p.csv', 'example_id,input_question\r\n1,"two\nlines?"\r\n2\r\n')
    expect(() => readProductionFile(phoenix, 'phoenix')).toThrow(`${phoenix}:4: 1 fields where the header has 2`)
    const noQuestion = written('q.csv', 'example_id,input_prompt\n1,hello\n')
    expect(() => readProductionFile(noQuestion, 'auto')).toThrow(
      `${noQuestion}:2: the input has no question: expected question, query, input, user_input (a string) or messages`,
    )
    const unknown = written('u.jsonl', '{"prompt": "hi"}\n')
    expect(() => readProductionFile(unknown, 'auto')).toThrow(
      `${unknown}: cannot tell its format from its first record (fields: prompt)`,
    )
  })
})

describe('redaction before anything is written', () => {
  it('replaces API-key shapes, emails, phone numbers and the run’s secrets, and counts each kind', () => {
    registerSecret('tenant-pass-8841')
    const counts: Redactions = new Map()
    expect(
      redactText(
        'key sk-ant-api03-Xq7LmN2pRtV9wY4zAbCdEf, AKIAIOSFODNN7EXAMPLE; mail ana.b+x@mail.example.co.uk; ' +
          'call +44 20 7946 0958 or (555) 123-4567; pass tenant-pass-8841',
        counts,
      ),
    ).toBe('key [REDACTED], [REDACTED]; mail [email]; call [phone] or [phone]; pass [REDACTED]')
    expect(Object.fromEntries(counts)).toEqual({ 'configured secret': 1, 'API key': 2, email: 1, 'phone number': 2 })
    // Figures a question holds are not personal data: dates, amounts, sizes, versions, document ids.
    const figures = 'On 2026-05-02 a USD 5,000 credit, 10 000 000 rows, 1.000.000 EUR, 500 MB, v3.5.1, SEV1 in 1 hour, doc-021'
    expect(redactText(figures, counts)).toBe(figures)
  })

  it('redacts every text of a question (its history and asker too), never its place in the file', () => {
    const counts: Redactions = new Map()
    const asked = redactAsked(
      {
        question: 'Mail me at li@example.org',
        history: [{ role: 'user', content: 'I am li@example.org' }],
        userContext: { contact: { email: 'li@example.org' } },
        retrievedIds: ['policies/access-reviews'],
        flag: null,
        file: 'a@b.jsonl',
        line: 3,
      },
      counts,
    )
    expect(asked).toEqual({
      question: 'Mail me at [email]',
      history: [{ role: 'user', content: 'I am [email]' }],
      userContext: { contact: { email: '[email]' } },
      retrievedIds: ['policies/access-reviews'],
      flag: null,
      askedAt: undefined,
      file: 'a@b.jsonl',
      line: 3,
    })
    expect(counts.get('email')).toBe(3)
  })
})
