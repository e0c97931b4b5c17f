// Hints, errors and help text ship in the package and reach users' projects, which have none of this
// repository's package.json scripts: "(here: pnpm baseline:update)" sends a user to a command they cannot
// run. Read from the code itself: every string literal and template part of production code,
// with TypeScript's own parser, so comments (which may name the scripts) are not messages.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { ACCEPT_BASELINE, HOW_TO_CREATE_BASELINE } from './gate/baseline-location.ts'
import { REACCEPT_BASELINE } from './gate/baseline-schema.ts'

function productionFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return entry.name === 'testing' ? [] : productionFiles(path)
    return entry.name.endsWith('.ts') && !/\.(test|d)\.ts$/.test(entry.name) ? [path] : []
  })
}

/** Every string a module can print: string literals, and the literal parts of template strings. */
function stringsOf(file: string, text: string): { line: number; text: string }[] {
  // Only a source holding "pnpm" can hold a string naming a script (short of escaping its letters): the others are
  // not parsed, which was most of the test's time.
  if (!text.includes('pnpm')) return []
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true)
  const found: { line: number; text: string }[] = []
  const visit = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node))
      found.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, text: node.text })
    ts.forEachChild(node, visit)
  }
  visit(source)
  return found
}

const scripts = Object.keys((JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts)

describe('hints name commands a user can run in their own project', () => {
  it("no string of production code names one of this repository's package.json scripts (pnpm <script>)", () => {
    const script = new RegExp(`\\bpnpm (${scripts.map((name) => name.replace(/[.:]/g, '\\$&')).join('|')})(?![\\w:-])`)
    const named = productionFiles('src').flatMap((file) =>
      stringsOf(file, readFileSync(file, 'utf8')).flatMap(({ line, text }) => {
        const match = script.exec(text)
        return match ? [`${file}:${line}: ${match[0]}`] : []
      }),
    )
    // The pattern finds what it looks for: a message that once named it.
    expect(script.exec('create it with `vitest run --project eval -u` (here: pnpm baseline:update)')?.[0]).toBe(
      'pnpm baseline:update',
    )
    expect(named).toEqual([])
  })

  it('the baseline hints name npx vitest, which runs the project-local Vitest under npm, pnpm and yarn alike', () => {
    expect(ACCEPT_BASELINE).toBe('npx vitest run --project eval -u')
    expect(HOW_TO_CREATE_BASELINE).toMatch(/^create it with `npx vitest run --project eval -u` under the same EVAL_MODE, /)
    expect(REACCEPT_BASELINE).toBe('re-accept the baseline with `npx vitest run --project eval -u`')
  })
})
