import type { Report } from '../contract/report-schema.ts'
import type { QuestionOutcome } from '../contract/question-outcome-schema.ts'
import { formatTable } from '../common/format-table.ts'
import { gateMetricRows, renderRegressions, renderSystemErrors } from './render-gate.ts'
import { renderCalibration } from './render-calibration.ts'
import { renderModelRun } from './render-model-run.ts'
import { flakyLine } from './render-trials.ts'

/** The first line of summary.md: the pull-request comment step finds its own comment by it, to edit it, not add one. */
export const JOB_SUMMARY_MARKER = '<!-- rag-vitest-eval job summary -->'

/** Questions listed per flip direction; the rest are counted and left to latest.md, so the checks tab stays short. */
const LISTED = 10

/** Where the run's uploaded reports are (GitHub Actions: the run's page, its artifacts); null elsewhere. */
export function runArtifactsUrl(env: Record<string, string | undefined>): string | null {
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: run } = env
  return server && repo && run ? `${server}/${repo}/actions/runs/${run}#artifacts` : null
}

/** Where a lost question's answer documents were lost (its loss funnel): `lost at budget (doc-a, doc-b), stage rerank (doc-c)`. */
function lostAt(outcome: QuestionOutcome | undefined): string {
  if (outcome?.systemError) return `system error: ${outcome.systemError}`
  const where = new Map<string, string[]>()
  for (const entry of outcome?.funnel ?? []) {
    if (entry.lost === 'survived' || entry.lost === 'in-context') continue
    const step = entry.lost === 'stage' ? `stage ${entry.stage}` : entry.lost
    where.set(step, [...(where.get(step) ?? []), entry.docId])
  }
  return where.size === 0 ? '' : `lost at ${[...where].map(([step, docs]) => `${step} (${docs.join(', ')})`).join(', ')}`
}

/**
 * The job summary (GitHub's $GITHUB_STEP_SUMMARY, reports' summary.md, the pull-request comment): the gate's verdict
 * first, the metrics that changed with their intervals and p-values, the questions that flipped and where they were
 * lost, the flaky ones, system errors, the judge's calibration, the cost, and where the full reports and charts are.
 */
export function renderJobSummary(report: Report, artifactsUrl: string | null): string {
  const { gate } = report
  const section = (title: string, lines: string[]) => (lines.length === 0 ? [] : [`### ${title}`, '', ...lines, ''])
  const byId = new Map(report.questions.map((q) => [q.id, q]))
  const listed = (lines: string[]) => [
    ...lines.slice(0, LISTED).map((line) => `- ${line}`),
    ...(lines.length > LISTED ? [`- and ${lines.length - LISTED} more (latest.md)`] : []),
  ]
  const flipped = (status: 'regressed' | 'improved', describe: (id: string) => string) =>
    listed(
      (gate?.questions ?? []).filter((q) => q.status === status).map((q) => `${q.id}${describe(q.id) && `: ${describe(q.id)}`}`),
    )
  const changed = gate === null ? [] : gate.metrics.filter((m) => m.status === 'regressed' || m.status === 'improved')
  const verdict = gate === null ? 'gate: not compared with a baseline in this run' : renderRegressions(gate, 'markdown')
  return [
    JOB_SUMMARY_MARKER,
    `## RAG evaluation: ${report.config.system}, ${report.tier} tier, ${report.summary.questions} questions`,
    '',
    `**${verdict.split('\n')[0]}**`,
    '',
    ...(changed.length === 0 ? [] : [formatTable(gateMetricRows({ ...gate!, metrics: changed }), 'markdown'), '']),
    ...section(
      'Where the regressed metrics were lost',
      (gate?.regressions ?? []).flatMap((r) => (r.lostAt ? [`- ${r.name}: ${r.lostAt}`] : [])),
    ),
    ...section(
      'Questions lost since the baseline',
      flipped('regressed', (id) => lostAt(byId.get(id))),
    ),
    ...section(
      'Questions won since the baseline',
      flipped('improved', () => ''),
    ),
    ...section('Flaky questions (their outcome differs across trials)', listed((report.trials?.flaky ?? []).map(flakyLine))),
    ...section('System errors', gate === null ? [] : renderSystemErrors(gate).map((line) => `- ${line.trim()}`)),
    ...section(
      'Judge calibration',
      report.calibration === null
        ? []
        : renderCalibration(report.calibration)
            .slice(0, 2)
            .map((line) => `- ${line}`),
    ),
    ...section(
      'Cost',
      report.config.mode === 'offline'
        ? ['offline: no model calls']
        : renderModelRun(report)
            .slice(0, 2)
            .map((line) => `- ${line}`),
    ),
    artifactsUrl === null
      ? 'Full reports and charts: latest.md, latest.json and charts/ in the reports folder.'
      : `Full reports and charts: [latest.md, latest.json and charts/ in this run's artifacts](${artifactsUrl}).`,
    '',
  ].join('\n')
}
