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

describe('serialisedReport', () => {
  it('writes a large report as UTF-8 pieces of about a megabyte that join into latest.json’s format', async () => {
    const report = await evaluate(await loadProjectConfig(), { tier: 'full', env: {} })
    // 4,000 questions (the run's, repeated under new ids) with a non-ASCII answer: several pieces.
    const large: Report = {
      ...report,
      questions: Array.from({ length: 4000 }, (_, i) => ({
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
    const report = await evaluate(await loadProjectConfig(), { tier: 'retrieval', env: {} })
    const empty: Report = { ...report, questions: [] }
    expect(serialiseReport(empty)).toBe(expectedText(empty))
    expect((JSON.parse(serialiseReport(empty)) as Report).questions).toEqual([])
  })
})
