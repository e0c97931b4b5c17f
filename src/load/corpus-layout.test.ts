import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { loadCorpus, loadCorpusFrom } from './corpus.ts'
import { CorpusSpecSchema } from './corpus-spec.ts'
import { failureMessage as failure } from '../testing/failure-message.ts'

const made: string[] = []
afterEach(() => {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** A corpus folder holding the given files (relative path -> text or bytes), removed after the test. */
function corpusOf(files: Record<string, string | Uint8Array>): string {
  const dir = mkdtempSync(join(tmpdir(), 'corpus-layout-'))
  made.push(dir)
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), content)
  }
  return dir
}

describe('loadCorpusFrom: any layout', () => {
  it('walks nested folders for .md, .mdx, .markdown and .txt, sorted by relative path; ids from paths, titles from headings or file names', () => {
    const dir = corpusOf({
      'guides/sso.md': 'Intro line.\n\n# Single Sign-On #\n\nSAML and OIDC.\n',
      'guides/setup/install.mdx': "import X from './x'\n\n```sh\n# not a title\n```\n\n# Installing\n\nRun it.\n",
      'faq.txt': 'Plain text, no heading.\n',
      'notes.v2.markdown': '## Only a level-2 heading\n\nText.\n',
      'README.rst': 'not a document type\n',
    })
    const { documents, excluded } = loadCorpusFrom({ dir })
    expect(documents.map((d) => [d.id, d.title, d.updated])).toEqual([
      ['faq', 'faq', undefined],
      ['guides/setup/install', 'Installing', undefined],
      ['guides/sso', 'Single Sign-On', undefined],
      ['notes.v2', 'notes.v2', undefined],
    ])
    expect(documents[2]!.body).toBe('Intro line.\n\n# Single Sign-On #\n\nSAML and OIDC.\n')
    expect(documents[2]!.file).toBe(join(dir, 'guides/sso.md'))
    expect(excluded).toEqual([{ file: 'README.rst', reason: 'not matched by include **/*.{md,mdx,markdown,txt}' }])
  })

  it('lets an explicit front-matter id and title win over the path and the heading, and keeps other fields as metadata', () => {
    const dir = corpusOf({
      'a/page.md':
        '---\nid: doc-007\ntitle: Front Title\nupdated: 2026-02-28\nsidebar_position: 3\ntags: [auth]\n---\n# Heading Title\n\nBody.\n',
      'a/other.md': '---\nupdated: 2024-02-29\n---\n# Other Heading\n\nBody.\n',
    })
    expect(loadCorpusFrom({ dir }).documents).toEqual([
      {
        id: 'a/other',
        title: 'Other Heading',
        updated: '2024-02-29',
        file: join(dir, 'a/other.md'),
        body: '# Other Heading\n\nBody.\n',
      },
      {
        id: 'doc-007',
        title: 'Front Title',
        updated: '2026-02-28',
        metadata: { sidebar_position: 3, tags: ['auth'] },
        file: join(dir, 'a/page.md'),
        body: '# Heading Title\n\nBody.\n',
      },
    ])
  })

  it('lists every file left out with its reason: default excludes (node_modules, dot folders and files), include and exclude globs', () => {
    const dir = corpusOf({
      'docs/keep.md': '# Keep\n\nText.\n',
      'docs/drafts/wip.md': '# WIP\n\nText.\n',
      'docs/image.png': 'png',
      'node_modules/pkg/README.md': '# Pkg\n',
      '.github/PULL_REQUEST_TEMPLATE.md': '# PR\n',
      '.hidden.md': '# Hidden\n',
      'src/index.ts': 'export {}\n',
    })
    expect(loadCorpusFrom({ dir }).excluded).toEqual([
      { file: '.github/', reason: 'excluded by **/.*/**' },
      { file: '.hidden.md', reason: 'excluded by **/.*' },
      { file: 'docs/image.png', reason: 'not matched by include **/*.{md,mdx,markdown,txt}' },
      { file: 'node_modules/', reason: 'excluded by **/node_modules/**' },
      { file: 'src/index.ts', reason: 'not matched by include **/*.{md,mdx,markdown,txt}' },
    ])
    const { documents, excluded } = loadCorpusFrom({ dir, include: ['docs/**/*.md'], exclude: ['**/drafts/**'] })
    expect(documents.map((d) => d.id)).toEqual(['docs/keep'])
    // A spec's own exclude replaces the default: node_modules is now reached, and left out by include.
    expect(excluded).toEqual([
      { file: '.github/PULL_REQUEST_TEMPLATE.md', reason: 'not matched by include docs/**/*.md' },
      { file: '.hidden.md', reason: 'not matched by include docs/**/*.md' },
      { file: 'docs/drafts/', reason: 'excluded by **/drafts/**' },
      { file: 'docs/image.png', reason: 'not matched by include docs/**/*.md' },
      { file: 'node_modules/pkg/README.md', reason: 'not matched by include docs/**/*.md' },
      { file: 'src/index.ts', reason: 'not matched by include docs/**/*.md' },
    ])
  })

  it('lists symbolic links to folders (not followed) and follows links to files', () => {
    const dir = corpusOf({ 'real/a.md': '# A\n\nText.\n' })
    symlinkSync(join(dir, 'real'), join(dir, 'loop'))
    symlinkSync(join(dir, 'real/a.md'), join(dir, 'b.md'))
    symlinkSync(join(dir, 'missing.md'), join(dir, 'c.md'))
    const { documents, excluded } = loadCorpusFrom({ dir })
    expect(documents.map((d) => [d.id, d.title])).toEqual([
      ['b', 'A'],
      ['real/a', 'A'],
    ])
    expect(excluded).toEqual([
      { file: 'c.md', reason: 'broken symbolic link' },
      { file: 'loop', reason: 'symbolic link to a folder: not followed' },
    ])
  })

  it('names the folder and the include globs when nothing is selected', () => {
    const dir = corpusOf({ 'notes.html': '<p>x</p>', 'img/a.png': 'png' })
    expect(failure(() => loadCorpusFrom({ dir }))).toBe(
      `${dir}: no corpus documents: no file matches include **/*.{md,mdx,markdown,txt} (2 left out: img/a.png: not matched by include **/*.{md,mdx,markdown,txt}; notes.html: not matched by include **/*.{md,mdx,markdown,txt})`,
    )
    expect(failure(() => loadCorpusFrom({ dir: corpusOf({}), include: ['docs/**'] }))).toMatch(
      /: no corpus documents: no file matches include docs\/\*\* \(the folder is empty\)$/,
    )
  })

  it('says a file stands where the corpus folder should be, and names a missing folder', () => {
    const dir = corpusOf({ 'one.md': '# One\n\nText.\n' })
    expect(failure(() => loadCorpus(join(dir, 'one.md')))).toBe(`${join(dir, 'one.md')}: expected a corpus folder, found a file`)
    expect(failure(() => loadCorpus(join(dir, 'absent')))).toBe(
      `${join(dir, 'absent')}: corpus folder not found (expected a folder of Markdown documents)`,
    )
  })

  it('rejects two files that derive the same id, naming both', () => {
    const dir = corpusOf({ 'guides/sso.md': '# A\n\nText.\n', 'guides/sso.mdx': '# B\n\nText.\n' })
    expect(failure(() => loadCorpusFrom({ dir }))).toBe(
      `${join(dir, 'guides/sso.mdx')}: duplicate document id guides/sso (already used by ${join(dir, 'guides/sso.md')})`,
    )
  })

  it('rejects an empty include list and unknown spec fields', () => {
    expect(failure(() => loadCorpusFrom({ dir: 'corpus', include: [] }))).toBe(
      'corpus "corpus": field "include": expected at least one include glob (default: **/*.{md,mdx,markdown,txt})',
    )
  })
})

describe('CorpusSpecSchema', () => {
  it('turns a folder name into the object with the default globs, and fills in what an object leaves out', () => {
    const defaults = { include: ['**/*.{md,mdx,markdown,txt}'], exclude: ['**/node_modules/**', '**/.*/**', '**/.*'] }
    expect(CorpusSpecSchema.parse('docs')).toEqual({ dir: 'docs', ...defaults })
    expect(CorpusSpecSchema.parse({ dir: 'docs', exclude: [] })).toEqual({ dir: 'docs', include: defaults.include, exclude: [] })
    expect(CorpusSpecSchema.safeParse({ dir: 'docs', includes: ['*.md'] }).success).toBe(false)
  })
})

describe('loadCorpusFrom: input never altered or ignored in silence', () => {
  it('accepts a UTF-8 byte-order mark before the front matter (it is not text)', () => {
    const dir = corpusOf({ 'a.md': '\uFEFF---\nid: bom-1\ntitle: With BOM\n---\nText.\n' })
    expect(loadCorpus(dir).map((d) => [d.id, d.title, d.body])).toEqual([['bom-1', 'With BOM', 'Text.\n']])
  })

  it('rejects bytes that are not UTF-8, naming the file and the byte offset of the first one', () => {
    // "# Caf" is 5 bytes, "\n" 1, "Br" 2: the Latin-1 é (0xE9) of "Br\xE9" is byte 8 (from 0), on line 2.
    const latin1 = Uint8Array.from([...Buffer.from('# Caf\nBr'), 0xe9, ...Buffer.from('sil\n')])
    const dir = corpusOf({ 'ok.md': '# Fine\n\nCaf\u00e9.\n', 'bad.md': latin1 })
    expect(failure(() => loadCorpus(dir))).toBe(
      `${join(dir, 'bad.md')}: not valid UTF-8: byte 0xE9 at byte offset 8 (line 2) does not start a valid UTF-8 sequence; save the file as UTF-8 (it may be Latin-1 or Windows-1252)`,
    )
  })

  it('names every file that is not UTF-8, in path order, not only the first', () => {
    // Windows-1252 bytes: 0x92 (a curly apostrophe) at offset 3 on line 1; 0xE9 at offset 7 ("Line\n" 5, "Ca" 2) on line 2;
    // 0xFC (ü) at offset 0. A UTF-8 é (C3 A9) and a truncated sequence (C3 at the end, offset 4) beside them.
    const files = {
      'a/one.md': Uint8Array.from([...Buffer.from('It'), 0x20, 0x92, ...Buffer.from('s\n')]),
      'b.md': '# Fine\n\nCaf\u00e9.\n',
      'c/two.txt': Uint8Array.from([...Buffer.from('Line\nCa'), 0xe9, ...Buffer.from('\n')]),
      'd.md': Uint8Array.from([0xfc, ...Buffer.from('ber\n')]),
      'e.md': Uint8Array.from([...Buffer.from('Last'), 0xc3]),
    }
    const dir = corpusOf(files)
    const hint = 'does not start a valid UTF-8 sequence; save the file as UTF-8 (it may be Latin-1 or Windows-1252)'
    expect(failure(() => loadCorpus(dir))).toBe(
      [
        '4 corpus files are not valid UTF-8:',
        `${join(dir, 'a/one.md')}: not valid UTF-8: byte 0x92 at byte offset 3 (line 1) ${hint}`,
        `${join(dir, 'c/two.txt')}: not valid UTF-8: byte 0xE9 at byte offset 7 (line 2) ${hint}`,
        `${join(dir, 'd.md')}: not valid UTF-8: byte 0xFC at byte offset 0 (line 1) ${hint}`,
        `${join(dir, 'e.md')}: not valid UTF-8: byte 0xC3 at byte offset 4 (line 1) ${hint}`,
      ].join('\n'),
    )
  })

  it('rejects an impossible updated date, naming the file and the field', () => {
    for (const date of ['2026-13-45', '2026-02-30', '2025-02-29']) {
      const dir = corpusOf({ 'a.md': `---\nupdated: ${date}\n---\nText.\n` })
      expect(failure(() => loadCorpus(dir))).toBe(
        `${join(dir, 'a.md')}: front matter field "updated": ${date} is not a day of the calendar; expected a date written YYYY-MM-DD`,
      )
    }
  })

  it('rejects supersedes naming no document of the corpus, naming the file and the unknown id', () => {
    const dir = corpusOf({
      'old.md': '---\nid: doc-1\n---\nOld.\n',
      'new.md': '---\nid: doc-2\nsupersedes: [doc-1, doc-404]\n---\nNew.\n',
      'guides/b.md': '---\nsupersedes: guides/a\n---\nB.\n',
    })
    expect(failure(() => loadCorpus(dir)).split('\n')).toEqual([
      `${join(dir, 'guides/b.md')}: front matter field "supersedes": guides/a is not a document of the corpus`,
      `${join(dir, 'new.md')}: front matter field "supersedes": doc-404 is not a document of the corpus`,
    ])
    // A path-derived id can be superseded.
    const fixed = corpusOf({ 'guides/a.md': 'A.\n', 'guides/b.md': '---\nsupersedes: guides/a\n---\nB.\n' })
    expect(loadCorpus(fixed).map((d) => [d.id, d.supersedes])).toEqual([
      ['guides/a', undefined],
      ['guides/b', 'guides/a'],
    ])
  })

  it('keeps the character rule for an explicit id, and reports front matter that is never closed', () => {
    const dir = corpusOf({ 'a.md': '---\nid: guides/sso\n---\nText.\n' })
    expect(failure(() => loadCorpus(dir))).toBe(
      `${join(dir, 'a.md')}: front matter field "id": expected a stable id such as doc-001 (letters, digits, . _ -)`,
    )
    const open = corpusOf({ 'a.md': '---\nid: a\n\nText.\n' })
    expect(failure(() => loadCorpus(open))).toBe(
      `${join(open, 'a.md')}: front matter opened by '---' on line 1 is not closed by a '---' line`,
    )
  })
})
