import { describe, expect, it } from 'vitest'
import { toolUseReply } from '../../model-server/messages-server.ts'
import { scriptedReply, userText } from '../../model-server/scripted-responder.ts'
import { localClient } from '../../model/testing/test-client.ts'
import { useScriptedServer } from '../../model/testing/use-scripted-server.ts'
import { stripCitationMarkers } from '../../contract/citation-markers.ts'
import { citedSentences } from '../../scoring/generation/citations.ts'
import type { JudgeInput } from '../judge.ts'
import { offlineJudge } from '../offline-judge.ts'
import { judgeCitations } from './citations.ts'

const context = [
  { chunkId: 'd1#0', text: 'Traces are kept for 30 days on the Business plan.' },
  { chunkId: 'd2#0', text: 'Snapshots are taken every 6 hours.' },
  { chunkId: 'd3#0', text: 'The office closes at 18:00 on Fridays.' },
]

/** The judge's input for an answer with markers, as judgeInputOf makes it. */
const inputFor = (answer: string): JudgeInput => ({
  questionId: 'q-1',
  question: 'How long are traces kept, and how often are snapshots taken?',
  answer: stripCitationMarkers(answer),
  cited: citedSentences(
    answer,
    context.map((c) => c.chunkId),
  ),
  goldAnswer: null,
  context,
})

const CORRECT = 'Traces are kept for 30 days on Business [1]. Snapshots are taken every 6 hours [2].'
// Sentence 1 cites d1 (supports) and d3 (does not); sentence 2 cites d3 only; "So that is that." states nothing
// (no support needed) but cites [7] of a 3-chunk context. Precision 1 / (2 + 1 + 1) = 0.25; recall 1 / 2.
const MISCITED = 'Traces are kept for 30 days on Business [1][3]. Snapshots are taken every 6 hours [3]. So that is that [7].'

describe('the offline citation judge', () => {
  it('scores a correctly cited answer 1 and 1', async () => {
    const judgement = await offlineJudge.judge(inputFor(CORRECT))
    expect(judgement.citationPrecision).toMatchObject({ value: 1, numerator: 2, denominator: 2, fabricated: [] })
    expect(judgement.citationPrecision.supportedSentences).toMatchObject({ value: 1, numerator: 2, denominator: 2 })
  })

  it('scores a miscited answer below 1 and lists the marker past the context as fabricated', async () => {
    const { citationPrecision: result } = await offlineJudge.judge(inputFor(MISCITED))
    expect(result).toMatchObject({ value: 0.25, numerator: 1, denominator: 4, fabricated: ['[7]'] })
    expect(result.supportedSentences).toMatchObject({ value: 0.5, numerator: 1, denominator: 2 })
    expect(result.sentences.map((s) => [s.needsSupport, s.supportedBy, s.supported])).toEqual([
      [true, ['d1#0'], true],
      [true, [], false],
      [false, [], false],
    ])
  })

  it('leaves the other metrics as they were without the markers', async () => {
    const cited = await offlineJudge.judge(inputFor(CORRECT))
    const plain = await offlineJudge.judge({ ...inputFor(CORRECT), cited: undefined })
    expect(cited.faithfulness).toEqual(plain.faithfulness)
    expect(cited.answerRelevancy).toEqual(plain.answerRelevancy)
  })

  it('has no precision for an answer citing nothing (nothing-cited), and recall 0', async () => {
    const { citationPrecision: result } = await offlineJudge.judge(inputFor('Traces are kept for 30 days on Business.'))
    expect(result).toMatchObject({ value: null, status: 'nothing-cited' })
    expect(result.supportedSentences.value).toBe(0)
  })
})

describe('the model citation judge against the local server', () => {
  const local = useScriptedServer()
  const options = { model: 'claude-haiku-4-5-20251001', maxTokens: 512 }

  it('asks one forced record_citations call about the sentences that cite, against the chunks they cite', async () => {
    const { result, error } = await judgeCitations(localClient(local.server), inputFor(MISCITED), options)
    expect(error).toBeNull()
    // The scripted server decides support lexically: the same verdicts as the offline judge.
    expect(result).toMatchObject({ value: 0.25, fabricated: ['[7]'] })
    expect(result.supportedSentences.value).toBe(0.5)
    expect(local.server.requests).toHaveLength(1)
    const request = local.server.requests[0]!
    expect(request.body.tool_choice).toEqual({ type: 'tool', name: 'record_citations', disable_parallel_tool_use: true })
    const text = userText(request)
    expect(text).toContain('<claim n="1" cites="d1#0 d3#0">\nTraces are kept for 30 days on Business.\n</claim>')
    expect(text).toContain('<claim n="2" cites="d3#0">')
    expect(text).not.toContain('So that is that')
    expect(text).not.toContain('d2#0')
  })

  it('makes no call when no sentence cites a chunk of the context', async () => {
    const { result } = await judgeCitations(localClient(local.server), inputFor('Traces are kept for 30 days [4].'), options)
    expect(local.server.requests).toHaveLength(0)
    expect(result).toMatchObject({ value: 0, numerator: 0, denominator: 1, fabricated: ['[4]'] })
  })

  it('is a judge error when the model credits a chunk the sentence does not cite, after its repair', async () => {
    local.server.setResponder((request) =>
      request.body.tool_choice && JSON.stringify(request.body.tool_choice).includes('record_citations')
        ? toolUseReply(request, {
            verdicts: [
              { sentence: 1, supportedBy: ['d2#0'], supported: true, reason: 'r' },
              { sentence: 2, supportedBy: [], supported: false, reason: 'r' },
            ],
          })
        : scriptedReply(request),
    )
    const { result, error } = await judgeCitations(localClient(local.server), inputFor(MISCITED), options)
    expect(result).toMatchObject({ value: null, status: 'judge-error' })
    expect(error?.message).toMatch(/sentence 1 is supported by "d2#0", which it does not cite/)
  })
})
