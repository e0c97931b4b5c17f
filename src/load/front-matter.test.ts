import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { mulberry32 } from '../statistics/seeded-random.ts'
import { parseFrontMatter } from './front-matter.ts'

const FRONT_MATTER = /^---\r?\n([\s\S]*?)\r?\n---(?:\r?\n|$)/

/** The front matter of every Markdown file under `dir`. */
function frontMattersUnder(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.md'))
    .flatMap((name) => FRONT_MATTER.exec(readFileSync(join(dir, name), 'utf8'))?.[1] ?? [])
}

describe('front matter: plain `key: text` lines without the YAML parser, the same fields as YAML reads', () => {
  it('reads every front matter of this repository’s corpus and the examples as yaml does', () => {
    const sources = [...frontMattersUnder('corpus'), ...frontMattersUnder('examples')]
    expect(sources.length).toBeGreaterThan(49)
    for (const source of sources) expect(parseFrontMatter(source), source).toEqual(parse(source))
  })

  it('leaves to YAML what is not a plain string: numbers, booleans, null, quotes, lists, comments, maps', () => {
    const cases: [string, unknown][] = [
      [
        'id: doc-001\ntitle: Handbook Overview\nupdated: 2026-01-05',
        { id: 'doc-001', title: 'Handbook Overview', updated: '2026-01-05' },
      ],
      ['version: 3', { version: 3 }],
      ['ratio: 1e3', { ratio: 1000 }],
      ['hex: 0x1F', { hex: 31 }],
      ['draft: true', { draft: true }],
      ['owner: ~', { owner: null }],
      ['owner:', { owner: null }],
      ["title: 'Quoted: yes'", { title: 'Quoted: yes' }],
      ['title: Plain # a comment', { title: 'Plain' }],
      ['supersedes: [doc-001, doc-002]', { supersedes: ['doc-001', 'doc-002'] }],
      ['supersedes:\n  - doc-001', { supersedes: ['doc-001'] }],
      ['null: value', { '': 'value' }],
      ['title: a:b and q&a', { title: 'a:b and q&a' }],
      ['title: Ünïcode café', { title: 'Ünïcode café' }],
    ]
    for (const [source, fields] of cases) {
      expect(parseFrontMatter(source), source).toEqual(fields)
      expect(parse(source), source).toEqual(fields)
    }
  })

  it('throws as YAML does on a repeated key', () => {
    expect(() => parseFrontMatter('id: a\nid: b')).toThrow('Map keys must be unique')
  })

  it('agrees with yaml on 5,000 generated front matters', () => {
    const random = mulberry32(13)
    const pieces = [
      'a',
      'Z',
      '0',
      '7',
      '-',
      '+',
      '.',
      ' ',
      ':',
      '#',
      'e',
      'x',
      'o',
      '_',
      '~',
      'null',
      'true',
      'False',
      '2026-01-05',
      ',',
      '/',
      'é',
      "'",
      '[',
    ]
    for (let i = 0; i < 5000; i++) {
      const lines = Array.from({ length: 1 + Math.floor(random() * 3) }, () => {
        const value = Array.from({ length: Math.floor(random() * 6) }, () => pieces[Math.floor(random() * pieces.length)]).join(
          '',
        )
        return `${['id', 'title', 'updated', 'a-b', 'true', '1'][Math.floor(random() * 6)]}:${random() < 0.9 ? ' ' : ''}${value}`
      })
      const source = lines.join('\n')
      const outcome = (read: (text: string) => unknown) => {
        try {
          return read(source)
        } catch (error) {
          return `error: ${(error as Error).message}`
        }
      }
      const [ours, yaml] = [outcome(parseFrontMatter), outcome(parse)]
      // Strict equality implies toEqual's: only a pair it tells apart needs Vitest's (slower) assertion.
      if (!isDeepStrictEqual(ours, yaml)) expect(ours, source).toEqual(yaml)
    }
  })
})
