import { describe, expect, it } from 'vitest'
import { forcedToolName, toolUseReply, type ReceivedRequest } from '../model-server/messages-server.ts'
import { scriptedReply } from '../model-server/scripted-responder.ts'
import { tempDir, tinyProject } from '../model/testing/eval-child.ts'
import { TEST_API_KEY } from '../model/testing/test-client.ts'
import { useScriptedServer } from '../model/testing/use-scripted-server.ts'
import type { QuestionOutcome } from '../contract/report-schema.ts'
import { JudgeRepeatsSchema } from '../contract/judge-noise-schema.ts'
import { evaluate } from '../run/evaluate.ts'
import { judgeNoiseWarnings, measureJudgeNoise } from './judge-noise.ts'

const local = useScriptedServer()
const judgeCalls = () => local.server.requests.filter((r) => forcedToolName(r) !== null).length

describe('measureJudgeNoise', () => {
  it("gives each metric's run-to-run standard deviation and the questions that flip (hand-worked)", async () => {
    const report = await evaluate(tinyProject(), { tier: 'full', env: {}, baselineRoot: null })
    // Three answered questions, faithfulness judged three times:
    //   a: 1, 0.5, 1   b: 1, 1, 1   c: 0, 0, 0.5
    // Means per repeat: 2/3, 1.5/3 = 0.5, 2.5/3; their mean 2/3; squared deviations 0, 1/36, 1/36;
    // sample variance (2/36) / 2 = 1/36; standard deviation 1/6 = 0.1667. a and c flip, b holds.
    const base = {
      ...report.questions[0]!,
      refused: false,
      answerRelevancy: 1,
      coverage: 1,
      generation: report.questions[0]!.generation,
    }
    const judged = (id: string, faithfulness: number[]): QuestionOutcome => ({
      ...base,
      id,
      type: 'single',
      faithfulness: faithfulness[0]!,
      judgeRepeats: {
        refused: [false, false, false],
        faithfulness,
        answerRelevancy: [1, 1, 1],
        coverage: [1, 1, 1],
        ...Object.fromEntries(
          ['claimRecall', 'contextUtilisation', 'noiseSensitivity', 'hallucination', 'selfKnowledge'].map((f) => [f, [1, 1, 1]]),
        ),
      },
    })
    const noise = measureJudgeNoise([judged('a', [1, 0.5, 1]), judged('b', [1, 1, 1]), judged('c', [0, 0, 0.5])], 3)!
    const faithfulness = noise.metrics.find((m) => m.name === 'faithfulness')!
    expect(faithfulness.perRepeat).toEqual([0.6667, 0.5, 0.8333])
    expect(faithfulness.stdDev).toBe(0.1667)
    expect(faithfulness.flipped).toEqual([
      { id: 'a', values: [1, 0.5, 1] },
      { id: 'c', values: [0, 0, 0.5] },
    ])
    expect(noise.metrics.find((m) => m.name === 'coverage')).toMatchObject({ perRepeat: [1, 1, 1], stdDev: 0, flipped: [] })
    expect(judgeNoiseWarnings(noise, 0.01)).toEqual([
      "judge noise: faithfulness varies by 0.1667 (standard deviation over 3 judgements of the same answers), more than the gate's tolerance 0.01: a drop that small can be the judge, not the system (raise EVAL_TOLERANCE, or use EVAL_GATE_POLICY=both)",
    ])
    expect(judgeNoiseWarnings(noise, 0.2)).toEqual([])
    expect(measureJudgeNoise([judged('a', [1, 0.5, 1])], 1)).toBeNull()
  })

  it('finds no noise in the offline judge: it is deterministic, so its repeats agree', async () => {
    const report = await evaluate(tinyProject(), { tier: 'full', env: { EVAL_REPEATS: '3' }, baselineRoot: null })
    expect(report.judgeNoise?.repeats).toBe(3)
    expect(report.judgeNoise?.metrics.map((m) => [m.name, m.stdDev, m.flipped])).toEqual([
      ['refusalRate', 0, []],
      ['faithfulness', 0, []],
      ['answerRelevancy', 0, []],
      ['coverage', 0, []],
      ['citationPrecision', 0, []],
      ['citationRecall', 0, []],
    ])
    const once = await evaluate(tinyProject(), { tier: 'full', env: {}, baselineRoot: null })
    expect(once.judgeNoise).toBeNull()
    // The first judgement is the score: repeating changes no number of the report.
    expect(report.summary).toEqual(once.summary)
  })
})

describe('JudgeRepeatsSchema', () => {
  it("reads a report's repeats from before the generator diagnostics: their fields are optional, the original ones are not", () => {
    const before = { refused: [false, false], faithfulness: [1, 0.5], answerRelevancy: [1, 1], coverage: [0.5, 0.5] }
    expect(JudgeRepeatsSchema.parse(before)).toEqual(before)
    const { coverage: _coverage, ...withoutCoverage } = before
    expect(JudgeRepeatsSchema.safeParse(withoutCoverage).error?.issues.map((issue) => issue.path.join('.'))).toEqual(['coverage'])
  })
})

describe('EVAL_REPEATS against the local Messages API server', () => {
  const live = (cacheDir: string, repeats: string) =>
    evaluate(
      { ...tinyProject(), cacheDir },
      {
        tier: 'full',
        env: { EVAL_MODE: 'live', ANTHROPIC_API_KEY: TEST_API_KEY, ANTHROPIC_BASE_URL: local.server.url, EVAL_REPEATS: repeats },
        baselineRoot: null,
      },
    )

  it('sends three times the judge calls once, and none when run again', async () => {
    await live(tempDir('model-cache-'), '1')
    const once = judgeCalls()
    expect(once).toBeGreaterThan(0)
    local.server.resetStats()
    const cache = tempDir('model-cache-')
    await live(cache, '3')
    expect(judgeCalls()).toBe(3 * once)
    local.server.resetStats()
    const rerun = await live(cache, '3')
    expect(local.server.requests).toHaveLength(0)
    expect(rerun.run.usage.calls).toBe(0)
  })

  it('lists a question whose verdict flips between repeats, and warns that the tolerance is below the noise', async () => {
    // The second time the same relevancy request arrives, the scripted judge answers 0.3 instead.
    const seen = new Map<string, number>()
    local.server.setResponder((request: ReceivedRequest) => {
      if (forcedToolName(request) !== 'record_relevancy') return scriptedReply(request)
      const key = JSON.stringify(request.body.messages)
      const count = (seen.get(key) ?? 0) + 1
      seen.set(key, count)
      return count === 2 ? toolUseReply(request, { score: 0.3, reason: 'Second look.' }) : scriptedReply(request)
    })
    const report = await live(tempDir('model-cache-'), '3')
    const relevancy = report.judgeNoise!.metrics.find((m) => m.name === 'answerRelevancy')!
    // Relevancy is judged for every answer that is not a refusal; each of those flips in its second repeat.
    const judgedIds = report.questions.filter((q) => q.refused === false).map((q) => q.id)
    expect(judgedIds.length).toBeGreaterThan(0)
    expect(relevancy.flipped.map((f) => f.id)).toEqual(
      judgedIds.filter((id) => report.questions.find((q) => q.id === id)!.answerRelevancy !== 0.3),
    )
    for (const flip of relevancy.flipped) expect(flip.values).toEqual([flip.values[0], 0.3, flip.values[0]])
    expect(relevancy.stdDev).toBeGreaterThan(0.01)
    expect(report.warnings).toContain(
      `judge noise: answer relevancy varies by ${relevancy.stdDev} (standard deviation over 3 judgements of the same answers), more than the gate's tolerance 0.01: a drop that small can be the judge, not the system (raise EVAL_TOLERANCE, or use EVAL_GATE_POLICY=both)`,
    )
  })
})
