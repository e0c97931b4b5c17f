import { describe, expect, it } from 'vitest'
import { parseCorpusDocument } from '../load/corpus.ts'
import { chunkDocument } from './chunker.ts'
import { countTextTokens } from '../text/tokenizer.ts'

const doc = (body: string) => parseCorpusDocument(`---\nid: d-1\ntitle: Sampling\nupdated: 2026-01-01\n---\n${body}`, 'test.md')

describe('chunkDocument', () => {
  it('starts a chunk at every heading and prefixes the heading path', () => {
    const chunks = chunkDocument(
      doc('# Sampling\n\nIntro sentence.\n\n## Head sampling\n\nHead rate is 10%.\n\n### Overrides\n\nAsk the TAM.\n'),
      {
        chunkTokens: 100,
        chunkOverlap: 0,
      },
    )
    expect(chunks.map((c) => c.text)).toEqual([
      'Sampling\nIntro sentence.',
      'Sampling > Head sampling\nHead rate is 10%.',
      'Sampling > Head sampling > Overrides\nAsk the TAM.',
    ])
    expect(chunks.map((c) => c.chunkId)).toEqual(['d-1#1', 'd-1#2', 'd-1#3'])
    expect(chunks.every((c) => c.tokens === countTextTokens(c.text))).toBe(true)
  })

  it('chunks a document that quotes special tokens, in a sentence longer than a chunk too, as plain text', () => {
    const long = `The model emits <|endoftext|> at the end ${'of a very long and winding sentence '.repeat(12)}and stops.`
    const chunks = chunkDocument(doc(`# Tokens\n\nShort one with <|fim_prefix|> inside.\n\n${long}\n`), {
      chunkTokens: 40,
      chunkOverlap: 0,
    })
    expect(chunks.map((c) => c.text).join(' ')).toContain('<|endoftext|>')
    expect(chunks[0]!.text).toBe('Sampling > Tokens\nShort one with <|fim_prefix|> inside.')
    expect(chunks.every((c) => c.tokens === countTextTokens(c.text) && c.tokens <= 40)).toBe(true)
  })

  it('keeps sentences whole, carries whole sentences as overlap and respects the size', () => {
    const sentences = Array.from({ length: 12 }, (_, i) => `Sentence number ${i + 1} talks about trace sampling rates.`)
    const chunks = chunkDocument(doc(sentences.join(' ')), { chunkTokens: 40, chunkOverlap: 12 })
    expect(chunks.length).toBeGreaterThan(3)
    for (const chunk of chunks) {
      expect(chunk.tokens).toBeLessThanOrEqual(40)
      const body = chunk.text.slice('Sampling\n'.length)
      // Every chunk is made of whole sentences from the list.
      expect(body.split(/(?<=\.) /).every((s) => sentences.includes(s))).toBe(true)
    }
    // Consecutive chunks share exactly their boundary sentence (each is ~11 tokens, within the 12-token overlap).
    for (let i = 1; i < chunks.length; i++) {
      const previousLast = chunks[i - 1]!.text.split('\n')[1]!
        .split(/(?<=\.) /)
        .at(-1)
      expect(chunks[i]!.text.split('\n')[1]!.startsWith(previousLast!)).toBe(true)
    }
  })

  it('keeps list items and table rows as whole lines', () => {
    const chunks = chunkDocument(
      doc('## Limits\n\n- Free: 1 workspace.\n- Team: 3 workspaces.\n\n| tier | days |\n| --- | --- |\n| Team | 15 |\n'),
      {
        chunkTokens: 200,
        chunkOverlap: 0,
      },
    )
    expect(chunks.map((c) => c.text)).toEqual([
      'Sampling > Limits\n- Free: 1 workspace.\n- Team: 3 workspaces.\n| tier | days |\n| --- | --- |\n| Team | 15 |',
    ])
  })

  it('cuts a sentence into one-token pieces when the heading path leaves a chunk one token of room', () => {
    const heading = 'Limits '.repeat(20).trim()
    const chunks = chunkDocument(doc(`## ${heading}\n\nTwo words.\n`), { chunkTokens: 16, chunkOverlap: 0 })
    expect(chunks.length).toBeGreaterThanOrEqual(2)
    expect(chunks.every((c) => c.text.startsWith(`Sampling > ${heading}\n`))).toBe(true)
    expect(chunks.map((c) => c.text.slice(`Sampling > ${heading}\n`.length)).join('')).toBe('Two words.')
  })

  it('cuts a single sentence longer than a chunk by tokens, the only case a sentence is cut', () => {
    const long = `${'word '.repeat(120).trim()}.`
    const chunks = chunkDocument(doc(long), { chunkTokens: 50, chunkOverlap: 0 })
    expect(chunks.length).toBeGreaterThanOrEqual(3)
    expect(chunks.every((c) => c.tokens <= 50)).toBe(true)
    expect(
      chunks
        .map((c) => c.text.slice('Sampling\n'.length))
        .join(' ')
        .replace(/\s+/g, ' '),
    ).toBe(long)
  })

  it('ignores heading-like lines inside code fences', () => {
    const chunks = chunkDocument(doc('## Config\n\n```\n# not a heading\nrate: 10\n```\n'), { chunkTokens: 100, chunkOverlap: 0 })
    expect(chunks).toHaveLength(1)
    expect(chunks[0]!.heading).toBe('Sampling > Config')
  })

  it("gives each chunk its text's token count, whatever its parts end and start with", () => {
    // A chunk's count is added up from its parts' counts; these are the joins where o200k's pieces could cross
    // a part's end: punctuation runs before a newline (".\n" is one piece), "/" or a space after one, other
    // scripts, digits, special tokens; in headings, paragraphs, list items and table rows.
    const ends = [
      '.',
      '?)',
      '...',
      ':',
      ').',
      "'",
      '"',
      '%',
      'x',
      '2',
      "a's",
      'e.g.',
      '/',
      './',
      'é',
      'é.',
      '—',
      '☃.',
      '<|endoftext|>',
      '.\t',
    ]
    const starts = ['The', '/usr/bin', '(see', '"Quoted', '3 items', 'é', '—dash', "'tis", '`code`', '<|fim_prefix|>', '.5 ms']
    const paragraphs = ends.flatMap((end, i) => {
      const start = starts[i % starts.length]!
      const next = starts[(i + 3) % starts.length]!
      return [
        `${start} word ${i}${end}`,
        `${start} one${end} ${next} two${end}`,
        `- ${next} item${end}\n- ${start} item${end}`,
        `| ${start} | ${i}${end} |`,
      ]
    })
    const headings = ends.map((end, i) => `## ${starts[i % starts.length]} part ${i}${end}`)
    const body = headings.map((heading, i) => [heading, ...paragraphs.slice(i * 4, i * 4 + 4)].join('\n\n')).join('\n\n')
    for (const [chunkTokens, chunkOverlap] of [
      [24, 0],
      [32, 8],
      [60, 20],
      [400, 0],
    ] as const) {
      const chunks = chunkDocument(doc(body), { chunkTokens, chunkOverlap })
      expect(chunks.length).toBeGreaterThan(ends.length - 1)
      for (const chunk of chunks) expect([chunk.text, chunk.tokens]).toEqual([chunk.text, countTextTokens(chunk.text)])
    }
  })
})
