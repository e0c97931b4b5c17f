import { describe, expect, it } from 'vitest'
import type { Report } from '../contract/report-schema.ts'
import { loadProjectConfig } from '../config/load-project-config.ts'
import { evaluate } from '../run/evaluate.ts'
import { withoutContextTexts } from './context-sidecar.ts'
import { serialisedReport, serialiseReport } from './write-report.ts'

/** latest.json's format from its definition: pretty JSON (two spaces) but each question on one line of its own. */
function expectedText(report: Report): string {
  const lean = withoutContextTexts(report)
  const lines = lean.questions.map((question) => `    ${JSON.stringify(question)}`)
  const pretty = JSON.stringify({ ...lean, questions: 'QUESTIONS' }, null, 2)
  return `${pretty.replace('"QUESTIONS"', () => (lines.length === 0 ? '[]' : `[\n${lines.join(',\n')}\n  ]`))}\n`
}

/** One full run of the three-question tiny project, shared by the tests: only its shape matters here. */
let run: Promise<Report> | undefined
const tinyReport = () =>
  (run ??= loadProjectConfig().then((repository) =>
    evaluate(
      { ...repository, corpus: { ...repository.corpus!, dir: 'fixtures/corpora/tiny' }, goldenSet: 'fixtures/golden/valid.json' },
      { tier: 'full', env: {}, baselineRoot: null },
    ),
  ))

describe('serialisedReport', () => {
  it('writes a large report as UTF-8 pieces of about a megabyte that join into latest.json’s format', async () => {
    const report = await tinyReport()
    // 1,500 questions (the run's, repeated under new ids) with a non-ASCII answer: about 4 MB, several pieces.
    const large: Report = {
      ...report,
      questions: Array.from({ length: 1500 }, (_, i) => ({
        ...report.questions[i % report.questions.length]!,
        id: `q-${i}`,
        answer: `Réponse ${i} — “quoted” ✓`,
      })),
    }
    const pieces = serialisedReport(large)
    expect(pieces.length).toBeGreaterThan(2)
    for (const piece of pieces.slice(0, -1)) expect(piece.length).toBeGreaterThanOrEqual(1 << 20)
    const text = new TextDecoder().decode(Buffer.concat(pieces))
    expect(text).toBe(expectedText(large))
    expect(serialiseReport(large)).toBe(text)
  })

  it('writes a report without questions with an empty list', async () => {
    const empty: Report = { ...(await tinyReport()), questions: [] }
    expect(serialiseReport(empty)).toBe(expectedText(empty))
    expect((JSON.parse(serialiseReport(empty)) as Report).questions).toEqual([])
  })
})
