import { existsSync } from 'node:fs'
import { dirname } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { Report } from '../contract/report-schema.ts'
import { openEvaluationChannel, receiveFromChannel } from './evaluation-channel.ts'
import {
  decodeEvaluation,
  encodeEvaluation,
  encodeRun,
  sharedEvaluationJson,
  type SharedEvaluation,
} from './shared-evaluation.ts'

function evaluation(questions: number): SharedEvaluation {
  // The channel carries what the report holds; it does not look inside it.
  const report = {
    schemaVersion: 1,
    questions: Array.from({ length: questions }, (_, i) => ({ id: `q-${i}`, question: `é ${i}` })),
  } as unknown as Report
  return {
    ok: true,
    report,
    terminalSummary: 'summary',
    reportsDir: '/r',
    projectRoot: '/p',
    baselineRoot: '/b',
    gate: false,
    strict: false,
    baselineUpdated: false,
  }
}

describe('the run reaches the cases over a local channel while the global setup goes on (issue 13.2)', () => {
  it('a case file that connects before the evaluation ends receives it when it ends; later ones receive the same', async () => {
    const channel = await openEvaluationChannel()
    try {
      let finish: (json: readonly Uint8Array[]) => void = () => {}
      channel.publish('evaluation', new Promise((resolve) => (finish = resolve)))
      const early = receiveFromChannel(channel.address, 'evaluation')
      const shared = { evaluation: evaluation(3), comparison: null }
      setTimeout(() => finish(encodeRun(encodeEvaluation(shared.evaluation), null)), 30)
      expect(JSON.parse(await early)).toEqual(shared)
      expect(JSON.parse(await receiveFromChannel(channel.address, 'evaluation'))).toEqual(shared)
    } finally {
      await channel.close()
    }
  })

  it('each topic has its own answer: the evaluation first, the reports once written (the cases run meanwhile)', async () => {
    const channel = await openEvaluationChannel()
    try {
      let written: (json: readonly Uint8Array[]) => void = () => {}
      channel.publish('evaluation', Promise.resolve(encodeRun(encodeEvaluation(evaluation(1)), null)))
      channel.publish('reports', new Promise((resolve) => (written = resolve)))
      const reports = receiveFromChannel(channel.address, 'reports')
      expect((JSON.parse(await receiveFromChannel(channel.address, 'evaluation')) as { evaluation: unknown }).evaluation).toEqual(
        evaluation(1),
      )
      written([new TextEncoder().encode(JSON.stringify({ error: 'reports/latest.json: ENOSPC' }))])
      expect(JSON.parse(await reports)).toEqual({ error: 'reports/latest.json: ENOSPC' })
    } finally {
      await channel.close()
    }
  })

  it('a watch-mode rerun publishes its own run: connections from then on receive it', async () => {
    const channel = await openEvaluationChannel()
    try {
      channel.publish('evaluation', Promise.resolve(encodeRun(encodeEvaluation(evaluation(1)), null)))
      channel.publish('evaluation', Promise.resolve(encodeRun(encodeEvaluation(evaluation(2)), { ok: false, error: 'B failed' })))
      expect(JSON.parse(await receiveFromChannel(channel.address, 'evaluation'))).toEqual({
        evaluation: evaluation(2),
        comparison: { ok: false, error: 'B failed' },
      })
    } finally {
      await channel.close()
    }
  })

  it('the evaluation as its host sends it (JSON pieces) travels as it is and decodes to the same run', () => {
    const object = evaluation(4)
    const text = JSON.stringify(object)
    const pieces = [new TextEncoder().encode(text.slice(0, 40)), new TextEncoder().encode(text.slice(40))]
    expect(Buffer.concat(encodeRun(pieces, null)).toString('utf8')).toBe(
      Buffer.concat(encodeRun(encodeEvaluation(object), null)).toString('utf8'),
    )
    expect(decodeEvaluation(pieces)).toEqual(object)
  })

  it('a host sends the report as latest.json holds it, spliced into the evaluation: the same run once parsed', () => {
    const {
      report,
      ok: _,
      gate: _g,
      strict: _s,
      baselineUpdated: _b,
      ...where
    } = evaluation(2) as Extract<SharedEvaluation, { ok: true }>
    const shard = { index: 2, count: 3 }
    const spliced = sharedEvaluationJson(where, [new TextEncoder().encode(JSON.stringify(report, null, 2))], { shard })
    expect(decodeEvaluation(spliced)).toEqual({
      ok: true,
      report,
      ...where,
      gate: false,
      strict: false,
      baselineUpdated: false,
      shard,
    })
    expect(decodeEvaluation(spliced)).toMatchObject({
      ok: true,
      gate: false,
      shard,
      report: { questions: [{ id: 'q-0' }, { id: 'q-1' }] },
    })
  })

  it('a topic nothing was published for is answered by a closed connection: an error naming the channel and the topic', async () => {
    const channel = await openEvaluationChannel()
    try {
      channel.publish('evaluation', Promise.resolve(encodeRun(encodeEvaluation(evaluation(1)), null)))
      await expect(receiveFromChannel(channel.address, 'reports')).rejects.toThrow(
        `the evaluation's channel ${channel.address} closed without the run's reports: the run was stopped`,
      )
    } finally {
      await channel.close()
    }
  })

  it('a closed channel is an error naming it, and closing removes its folder', async () => {
    const channel = await openEvaluationChannel()
    await channel.close()
    if (process.platform !== 'win32') expect(existsSync(dirname(channel.address))).toBe(false)
    await expect(receiveFromChannel(channel.address, 'evaluation')).rejects.toThrow(
      `the evaluation's channel ${channel.address} could not be read`,
    )
  })
})
