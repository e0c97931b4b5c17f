import { z } from 'zod'

/** Documents a corpus holds unless told otherwise: Markdown, MDX and plain text, at any depth. */
const DEFAULT_CORPUS_INCLUDE = ['**/*.{md,mdx,markdown,txt}']

/** Dependencies and hidden files and folders; a spec's own `exclude` replaces this list. */
const DEFAULT_CORPUS_EXCLUDE = ['**/node_modules/**', '**/.*/**', '**/.*']

const globs = (what: string) => z.array(z.string().min(1, `expected a glob such as ${what}`))

/** Where a corpus is: a folder (the default globs), or one with include/exclude picomatch globs over POSIX relative paths. */
export const CorpusSpecSchema = z
  .union([
    z.string().min(1, 'expected the corpus folder'),
    z
      .object({
        dir: z.string().min(1, 'expected the corpus folder'),
        include: globs('docs/**/*.md')
          .min(1, `expected at least one include glob (default: ${DEFAULT_CORPUS_INCLUDE.join(', ')})`)
          .optional(),
        exclude: globs('drafts/**').optional(),
      })
      .strict(),
  ])
  .transform((spec) => {
    const { dir, include, exclude } = typeof spec === 'string' ? { dir: spec } : spec
    return { dir, include: include ?? DEFAULT_CORPUS_INCLUDE, exclude: exclude ?? DEFAULT_CORPUS_EXCLUDE }
  })

/** A corpus spec with its defaults: `{ dir, include, exclude }`. */
export type CorpusSpec = z.output<typeof CorpusSpecSchema>
