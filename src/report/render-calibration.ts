import type { Calibration } from '../contract/report-schema.ts'

/** The agreement block: the judge against people's labels, kappa, and each disagreement with the disputed sentences. */
export function renderCalibration(calibration: Calibration): string[] {
  const percent = calibration.agreement === null ? 'n/a' : `${(calibration.agreement * 100).toFixed(0)}%`
  const lines = [
    `judge ${calibration.judge}${calibration.scripted ? ' (SCRIPTED recording, not a model)' : ''} ` +
      `vs ${calibration.compared} human label(s) in ${calibration.labelsFile}: agreement ${percent}, ` +
      `Cohen's kappa ${calibration.kappa ?? 'n/a'}`,
    calibration.advisory
      ? `ADVISORY: the judge's metrics (faithfulness, answer relevancy, coverage) do not block the gate: ${calibration.reason}`
      : `the judge may block the gate: ${calibration.reason}`,
  ]
  if (calibration.stale.length > 0)
    lines.push(`labels on answers that changed since (relabel with rag-eval label): ${calibration.stale.join(', ')}`)
  for (const d of calibration.disagreements)
    lines.push(`  ${d.id}: human ${d.human}, judge ${d.judge}; disputed: ${d.disputed.map((s) => `"${s}"`).join(' ')}`)
  return lines
}
