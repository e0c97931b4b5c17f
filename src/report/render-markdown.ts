import { trialsLines } from './render-trials.ts'
import { BLAME_REASONS, DIAGNOSIS_NAME } from '../contract/diagnoses.ts'
import { questionChecks, questionThresholds } from '../gate/question-checks.ts'
import { METRICS, type MetricTable } from '../contract/metrics/metric-table.ts'
import { describeRetrieval } from '../contract/retriever-options.ts'
import type { QuestionOutcome, Report } from '../contract/report-schema.ts'
import { formatTable } from '../common/format-table.ts'
import { diagnosisRows, funnelRows, generationSummaryRows, retrievalSummaryRows, whereToLook } from './summary-table.ts'
import {
  describeGatePolicy,
  gateMetricRows,
  renderAdvisory,
  renderQuestionChanges,
  renderRegressions,
  renderStaleness,
  renderSystemErrors,
} from './render-gate.ts'
import { renderDetectableDrop } from './render-terminal.ts'
import { renderCalibration } from './render-calibration.ts'
import { renderAttacks } from './render-attacks.ts'
import { renderEstimate, renderModelRun, renderWarnings } from './render-model-run.ts'
import { chartLinks, runCharts } from '../charts/run-charts.ts'
import { describeProvenance, provenanceLine } from './render-provenance.ts'

function tokensOf(outcome: QuestionOutcome): string {
  if (outcome.context.length === 0)
    return outcome.topRanked.length === 0
      ? 'nothing (nothing was ranked)'
      : 'nothing (the first ranked chunk did not fit the budget)'
  return outcome.context.map((c) => `${c.chunkId} (${c.tokens} tok)`).join(', ')
}

/** A question's values of the table's metrics that latest.md shows, of retrieval or of the answer: `reciprocal rank 0.5`. */
function questionValues(outcome: QuestionOutcome, table: MetricTable, retrieval: boolean): string[] {
  return table
    .filter((metric) => metric.questionLabel !== undefined && (metric.source === 'retrieval') === retrieval)
    .map((metric) => `${metric.questionLabel} ${metric.value(outcome) ?? 'n/a'}`)
}

function failureSection(outcome: QuestionOutcome, failedChecks: string[], table: MetricTable): string {
  const expected = outcome.governingDocId
    ? `${outcome.answerDocIds.join(', ')} (governing: ${outcome.governingDocId})`
    : outcome.answerDocIds.join(', ')
  const ranked = outcome.topRanked.map((r, i) => `${i + 1}. ${r.chunkId} (${r.score.toFixed(4)})`).join(' · ')
  return [
    `### ${outcome.id} [${outcome.type}] ${outcome.question}`,
    '',
    ...(outcome.history === undefined
      ? []
      : [
          '- follows the conversation:',
          ...outcome.history.map((turn, i) => `  ${i + 1}. ${turn.role}: ${turn.content.replace(/\s+/g, ' ')}`),
        ]),
    ...(outcome.userContext === null ? [] : [`- user context: \`${JSON.stringify(outcome.userContext)}\``]),
    ...(outcome.provenance === undefined || describeProvenance(outcome.provenance) === ''
      ? []
      : [`- provenance: ${describeProvenance(outcome.provenance)}`]),
    ...(outcome.systemError === null ? [] : [`- system error: ${outcome.systemError}`]),
    `- expected docs: ${expected}`,
    `- context docs (${outcome.contextTokens} tokens): ${tokensOf(outcome)}`,
    ...outcome.stages.map(
      (stage) =>
        `- stage ${stage.name}${stage.query === undefined ? '' : ` (query: ${stage.query})`}, ${stage.ranked} ranked: ` +
        (stage.topRanked.map((r, i) => `${i + 1}. ${r.chunkId}`).join(' · ') || 'nothing'),
    ),
    `- top-10 ranked: ${ranked || 'nothing ranked'}`,
    `- ${questionValues(outcome, table, true).join(', ')}`,
    ...(outcome.answer === null
      ? []
      : [
          `- answer: ${outcome.answer}`,
          `- ${[...questionValues(outcome, table, false), `diagnosis ${outcome.diagnosis ?? 'n/a'}`].join(', ')}`,
          ...(outcome.unsupportedClaims ?? []).map((claim) => `- unsupported: "${claim}"`),
          ...(outcome.blame === null ? [] : [`- blame: ${BLAME_REASONS[outcome.blame]}`]),
          ...(outcome.fabricatedCitations?.length ? [`- fabricated citations: ${outcome.fabricatedCitations.join(', ')}`] : []),
        ]),
    // An error is not a miss: the checks were not run against an answer, there was none.
    outcome.systemError === null
      ? `- failed: ${failedChecks.join(', ')}`
      : `- not measured: the system failed on it, so its checks (${failedChecks.join(', ')}) had nothing to check`,
  ].join('\n')
}

/** reports/latest.md: the summary per type, what could not be computed and why, and every miss with its evidence. */
export function renderMarkdown(report: Report, table: MetricTable = METRICS): string {
  const { summary } = report
  const failures = report.questions.flatMap((q) => {
    const failed = questionChecks(q, questionThresholds(report))
      .filter((c) => !c.passed)
      .map((c) => c.name)
    return failed.length > 0 ? [{ q, failed }] : []
  })
  const notComputed = Object.entries(summary.notComputed).map(([name, reason]) => `- ${name}: ${reason}`)
  return [
    ...headerLines(report),
    '## Charts',
    '',
    ...chartLinks(runCharts(report, table)).flatMap((link) => [link, '']),
    ...retrievalLines(report, table),
    ...(summary.judge === null ? [] : generationLines(summary, summary.judge, table)),
    ...(report.calibration === null
      ? []
      : ['## Judge calibration', '', ...renderCalibration(report.calibration, report.config.judgeCorrection), '']),
    ...(report.attacks === undefined ? [] : renderAttacks(report.attacks, report.config.maxAttackSuccessRate ?? 0)),
    '## Against the baseline',
    '',
    ...(report.gate === null ? ['Not compared with a baseline in this run.'] : baselineLines(report.gate)),
    '',
    ...(report.trials === undefined ? [] : trialsLines(report.trials)),
    '## Not computed',
    '',
    notComputed.length > 0 ? notComputed.join('\n') : 'Everything was computed.',
    '',
    `## Failing questions (${failures.length})`,
    '',
    failures.length > 0
      ? failures.map(({ q, failed }) => failureSection(q, failed, table)).join('\n\n')
      : 'Every question passed its checks.',
    '',
  ].join('\n')
}

/** The title, what was run on what, the warnings, and (model modes) the model calls and the estimate. */
function headerLines(report: Report): string[] {
  const { config, summary, corpus } = report
  const retrieval = config.system.startsWith('builtin-') ? ` · ${describeRetrieval(config.retrieval)}` : ''
  return [
    `# RAG evaluation: ${config.system}, ${report.tier} tier`,
    '',
    `Mode ${config.mode} · ${corpus.documents ?? 'n/a'} documents, ${corpus.chunks ?? 'n/a'} chunks ` +
      `· ${summary.questions} questions (${summary.answerable} answerable, ${summary.questionsByType.none} ` +
      `none) · context budget ${config.budgetTokens} tokens · ` +
      `chunks ${config.chunkTokens}/${config.chunkOverlap} overlap${retrieval} · tokenizer ${config.tokenizer}`,
    '',
    ...provenanceLine(report.questions).flatMap((line) => [line, '']),
    ...renderWarnings(report).map((line) => `> ${line}\n`),
    ...(config.mode === 'offline'
      ? []
      : [
          '## Model calls and cost',
          '',
          ...renderModelRun(report).map((line) => (line.startsWith('  ') ? `  - ${line.trimStart()}` : `- ${line}`)),
          '',
        ]),
    ...(report.run.estimate
      ? ['The estimate made before the first model call:', '', '```text', ...renderEstimate(report.run.estimate), '```', '']
      : []),
  ]
}

function retrievalLines(report: Report, table: MetricTable): string[] {
  const { config, summary } = report
  return [
    '## Retrieval',
    '',
    formatTable(retrievalSummaryRows(summary, config.k, table), 'markdown'),
    '',
    renderDetectableDrop(report),
    '',
    `Doc-level nDCG@10 (trec_eval ndcg_cut.10 on \`rag-eval trec-export\`): ${summary.docNdcg10 ?? 'n/a'}`,
    '',
    `RAGAS id-based context recall / precision (its IDBasedContextRecall / IDBasedContextPrecision on ` +
      `\`rag-eval export --format ragas\`): ${summary.idBasedContextRecall ?? 'n/a'} ` +
      `/ ${summary.idBasedContextPrecision ?? 'n/a'}`,
    '',
    ...(summary.funnel === null
      ? []
      : ['### Where the answer documents were lost', '', formatTable(funnelRows(summary), 'markdown'), '']),
  ]
}

function generationLines(summary: Report['summary'], judge: string, table: MetricTable): string[] {
  return [
    `## Generation (judge: ${judge})`,
    '',
    formatTable(generationSummaryRows(summary, table), 'markdown'),
    '',
    `Unclear refusals (left out of both refusal rates, for the model judge to decide): ${summary.refusalUnclear ?? 'n/a'}`,
    '',
    `## Diagnosis: ${DIAGNOSIS_NAME}`,
    '',
    formatTable(diagnosisRows(summary), 'markdown'),
    '',
    ...whereToLook(summary).map((line) => `- ${line}`),
    '',
  ]
}

function baselineLines(gate: NonNullable<Report['gate']>): string[] {
  return [
    ...(gate.baseline !== null ? [formatTable(gateMetricRows(gate), 'markdown'), '', describeGatePolicy(gate), ''] : []),
    ...renderStaleness(gate),
    ...renderQuestionChanges(gate).map((line) => `- ${line}`),
    ...renderAdvisory(gate),
    ...renderSystemErrors(gate),
    '',
    renderRegressions(gate, 'markdown'),
  ]
}
