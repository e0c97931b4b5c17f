import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { VerifiedLineSchema } from '../authoring/verify/verdict-schema.ts'
import { TEST_API_KEY } from '../model/testing/test-client.ts'
import { useScriptedServer } from '../model/testing/use-scripted-server.ts'
import { scriptedReply } from '../model-server/scripted-responder.ts'
import { parseFaultSpec, withFaults } from '../model-server/fault-injection.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { ragEvalChild } from '../testing/rag-eval-child.ts'
import { ragEvalInProcess } from './testing/rag-eval-in-process.ts'

const CANDIDATES = 'fixtures/golden-verify/candidates.jsonl'
const CORPUS = 'fixtures/golden-known-good/corpus'
const GOLDEN = 'fixtures/golden-verify/golden-set.json'

const temp = useTempDirs()
const local = useScriptedServer()

interface Line {
  id?: unknown
  provenance?: unknown
  verdict: { status: string; reasons: { check: string; message: string }[] }
}

/**
 * `rag-eval golden verify` as `pnpm golden:verify` runs it, in-process, or through the bin in a child process
 * (asynchronous, so the local server of this process answers it). The corpus and the current golden set default
 * to the fixtures'.
 */
async function verify(
  args: string[],
  env: Record<string, string> = {},
  where: { corpus?: string; golden?: string } = {},
  via: 'in-process' | 'bin' = 'in-process',
): Promise<{ code: number; stdout: string; stderr: string; lines: Line[] }> {
  const out = join(temp.make('golden-verify-'), 'verified.jsonl')
  const argv = ['golden', 'verify', ...args, '--corpus', where.corpus ?? CORPUS, '--golden', where.golden ?? GOLDEN, '--out', out]
  const runEnv = { ...process.env, EVAL_MODE: 'offline', ...env }
  const result = via === 'bin' ? await ragEvalChild(argv, runEnv) : await ragEvalInProcess(argv, { env: runEnv })
  const code = result.code ?? 1
  const lines =
    code === 0
      ? readFileSync(out, 'utf8')
          .trimEnd()
          .split('\n')
          .map((line) => JSON.parse(line) as Line)
      : []
  return { code, stdout: result.stdout, stderr: result.stderr, lines }
}

let offlineRun: ReturnType<typeof verify> | undefined
/** The offline run over the candidate file, made once for the tests that read it: the bin itself. */
const offline = () => (offlineRun ??= verify([CANDIDATES], {}, {}, 'bin'))

/** id -> [status, the checks of its reasons in order]. */
function verdicts(lines: readonly Line[]) {
  return lines.map((line) => [line.id, line.verdict.status, line.verdict.reasons.map((r) => r.check)])
}

/** What both judges decide alike: every rejection reason that does not need the judge's reading of a none or a contradiction. */
const COMMON = {
  'c-01': ['kept', []],
  'c-02': ['rejected', ['unsupported-claim', 'golden-check:unsupported-fact']],
  'c-03': ['rejected', ['leaked-answer']],
  'c-04': ['rejected', ['duplicate']],
  'c-05': ['rejected', ['duplicate']],
  'c-06': ['rejected', ['not-really-multi', 'golden-check:multi-facts-in-one-doc']],
  'c-11': ['rejected', ['schema']],
  'c-12': ['rejected', ['unknown-doc']],
  'c-14': ['kept', []],
} as const

describe('rag-eval golden verify, offline (the lexical judge)', () => {
  it('writes one verdict per candidate, in file order, with the reasons of every rejection and undecided case', async () => {
    const result = await offline()
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(verdicts(result.lines)).toEqual([
      ['c-01', ...COMMON['c-01']],
      ['c-02', ...COMMON['c-02']],
      ['c-03', ...COMMON['c-03']],
      ['c-04', ...COMMON['c-04']],
      ['c-05', ...COMMON['c-05']],
      ['c-06', ...COMMON['c-06']],
      // Offline, a passage holding every term of a none question may answer it: only a reader can tell.
      ['c-07', 'undecided', ['answerable-none']],
      ['c-08', 'rejected', ['contradiction-agrees']],
      ['c-09', 'rejected', ['unsupported-claim', 'governing']],
      ['c-10', 'rejected', ['unsupported-claim', 'golden-check:contradiction-without-governing']],
      ['c-11', ...COMMON['c-11']],
      ['c-12', ...COMMON['c-12']],
      ['c-13', 'undecided', ['unsupported-claim']],
      ['c-14', ...COMMON['c-14']],
      ['c-05', 'rejected', ['duplicate-id']],
    ])
    // Every line is the candidate as read plus its verdict: the provenance of a draft is kept verbatim.
    for (const line of result.lines) expect(VerifiedLineSchema.safeParse(line).success).toBe(true)
    const input = readFileSync(CANDIDATES, 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as unknown)
    expect(result.lines.map(({ verdict: _v, ...rest }) => rest)).toEqual(input)
    expect(result.lines[0]!.provenance).toEqual({
      origin: 'drafted',
      model: 'claude-test',
      promptHash: 'abc123',
      draftedAt: '2026-12-01T00:00:00Z',
    })
  })

  it('names the evidence: the duplicate pair, the unsupported figure, the leaked answer, the lone document, the agreeing figures', async () => {
    const { lines } = await offline()
    // By position: the last line reuses the id c-05.
    const message = (id: string, check: string) =>
      lines
        .findLast((l) => l.id === id && l.verdict.reasons.some((r) => r.check === check))!
        .verdict.reasons.find((r) => r.check === check)!.message
    expect(message('c-04', 'duplicate')).toBe(
      'a near-duplicate (content-term Jaccard 1.00) as candidate c-01 ("In which year was the composer of The Glass Fjord born?"), with the same answer documents the-glass-fjord, harald-vinter',
    )
    expect(message('c-05', 'duplicate')).toBe(
      'the same question as golden-set question g-001 ("In what year did The Glass Fjord premiere?"), with the same answer documents the-glass-fjord',
    )
    expect(message('c-02', 'unsupported-claim')).toBe(
      'not supported by harald-vinter: "Harald Vinter was born in 1926." (1926 in none of harald-vinter)',
    )
    expect(message('c-03', 'leaked-answer')).toBe(
      'the question contains its gold answer "Paul Ender.": a system can answer it by echoing the question',
    )
    expect(message('c-06', 'not-really-multi')).toMatch(
      /^the-glass-fjord alone supports every claim of the gold answer .*bergen-opera-house adds nothing/,
    )
    expect(message('c-08', 'contradiction-agrees')).toBe(
      'its documents do not disagree: every document states the same figures (valdoria: 21, 1915, 1921)',
    )
    expect(message('c-09', 'governing')).toBe(
      'governingDocId kestrel-islands is superseded by kestrel-islands-history (its front matter says so)',
    )
    expect(message('c-11', 'schema')).toBe('field "goldAnswer": a single question needs a goldAnswer of one or two sentences')
    expect(message('c-05', 'duplicate-id')).toBe(`id c-05 is already used at ${CANDIDATES}:5`)
  })

  it('prints the rejected and undecided candidates, the counts per reason and the totals', async () => {
    const { stdout } = await offline()
    const lines = stdout.trimEnd().split('\n')
    expect(lines.at(-3)).toBe(
      'rejections by check: duplicate 2, contradiction-agrees 1, duplicate-id 1, golden-check:contradiction-without-governing 1, ' +
        'golden-check:multi-facts-in-one-doc 1, golden-check:unsupported-fact 1, governing 1, leaked-answer 1, not-really-multi 1, ' +
        'schema 1, unknown-doc 1, unsupported-claim 1',
    )
    expect(lines.at(-2)).toBe('undecided by check: unsupported-claim 3, answerable-none 1')
    expect(lines.at(-1)).toMatch(
      /^golden verify \(offline-lexical\): 15 candidates: 2 kept, 11 rejected, 2 undecided; verdicts in .*verified\.jsonl$/,
    )
    expect(stdout).toContain(
      'undecided\n  c-07  (fixtures/golden-verify/candidates.jsonl:7)\n      answerable-none: top 3 of the built-in BM25 retriever: merin-university#1 holds every content term of the question (merin, univers, found): it may answer it, and the offline judge cannot tell',
    )
  })

  it('rejects no question of the known-good sets (false-alarm rate 0 of 136) and leaves the undecided ones counted', async () => {
    const own = await verify(['evals/golden-set.json'], {}, { corpus: 'corpus', golden: 'evals/golden-set.json' })
    expect(own.stdout.trimEnd().split('\n').at(-1)).toMatch(/: 120 candidates: 107 kept, 0 rejected, 13 undecided;/)
    const knownGood = await verify(
      ['fixtures/golden-known-good/golden-set.json'],
      {},
      { golden: 'fixtures/golden-known-good/golden-set.json' },
    )
    expect(knownGood.stdout.trimEnd().split('\n').at(-1)).toMatch(/: 16 candidates: 14 kept, 0 rejected, 2 undecided;/)
  })

  it('reads the other formats through the importers', async () => {
    const dir = temp.make('golden-verify-ragas-')
    const ragas = join(dir, 'ragas.jsonl')
    const rows = [
      {
        user_input: 'In which year was Harald Vinter born?',
        reference: 'Harald Vinter was born in 1926.',
        reference_context_ids: ['harald-vinter'],
      },
      { user_input: 'Where was Ilse Moravec born?', reference: 'In Brno.', reference_context_ids: ['ilse-moravec'] },
    ]
    writeFileSync(ragas, rows.map((r) => JSON.stringify(r)).join('\n') + '\n')
    const result = await verify([ragas, '--format', 'ragas'])
    expect(result.code).toBe(0)
    expect(verdicts(result.lines)).toEqual([
      ['q-001', 'rejected', ['unsupported-claim', 'golden-check:unsupported-fact']],
      ['q-002', 'kept', []],
    ])
  })
})

describe('rag-eval golden verify, live against the local Messages API server (the model judge)', () => {
  it('asks the judge per claim, per none question and per contradiction; a rerun is answered from the cache', async () => {
    const env = {
      EVAL_MODE: 'live',
      ANTHROPIC_API_KEY: TEST_API_KEY,
      ANTHROPIC_BASE_URL: local.server.url,
      EVAL_CACHE_DIR: temp.make('verify-cache-'),
    }
    const first = await verify([CANDIDATES], env)
    expect(first.code).toBe(0)
    expect(verdicts(first.lines)).toEqual([
      ['c-01', ...COMMON['c-01']],
      ['c-02', ...COMMON['c-02']],
      ['c-03', ...COMMON['c-03']],
      ['c-04', ...COMMON['c-04']],
      ['c-05', ...COMMON['c-05']],
      ['c-06', ...COMMON['c-06']],
      // The (scripted) judge reads the none question's answer in merin-university: rejected, not undecided.
      ['c-07', 'rejected', ['answerable-none']],
      ['c-08', 'rejected', ['contradiction-agrees']],
      // The scripted judge, lexical, finds no support for the claims about the documents themselves.
      ['c-09', 'rejected', ['unsupported-claim', 'governing', 'governing']],
      ['c-10', 'rejected', ['unsupported-claim', 'golden-check:contradiction-without-governing']],
      ['c-11', ...COMMON['c-11']],
      ['c-12', ...COMMON['c-12']],
      // The judge decides the yes/no claim the lexical judge could not.
      ['c-13', 'kept', []],
      ['c-14', ...COMMON['c-14']],
      ['c-05', 'rejected', ['duplicate-id']],
    ])
    const tools = local.server.requests.map((r) => (r.body.tool_choice as { name: string }).name)
    expect(new Set(tools)).toEqual(new Set(['record_faithfulness', 'record_answerability', 'record_disagreement']))
    expect(first.stdout).toMatch(
      /^golden verify \(model:claude-haiku-4-5-20251001\): 15 candidates: 3 kept, 12 rejected, 0 undecided;/m,
    )
    expect(first.stdout).toMatch(new RegExp(`^model: ${tools.length} calls, 0 from the cache, USD \\d+\\.\\d{4}$`, 'm'))
    const sent = local.server.requests.length
    const again = await verify([CANDIDATES], env)
    expect(verdicts(again.lines)).toEqual(verdicts(first.lines))
    expect(local.server.requests.length).toBe(sent)
    expect(again.stdout).toMatch(new RegExp(`^model: 0 calls, ${sent} from the cache, USD 0\\.0000$`, 'm'))
  })

  it('a server failing for good (a 500, retries spent) leaves the judged checks undecided, naming the error; the rest is verified', async () => {
    local.server.setResponder(withFaults(scriptedReply, parseFaultSpec('500')))
    const env = {
      EVAL_MODE: 'live',
      ANTHROPIC_API_KEY: TEST_API_KEY,
      ANTHROPIC_BASE_URL: local.server.url,
      EVAL_CACHE_DIR: temp.make('verify-cache-'),
      EVAL_MAX_RETRIES: '0',
    }
    const result = await verify([CANDIDATES], env)
    expect(result).toMatchObject({ code: 0, stderr: '' })
    // Rejected without the judge: the leaked answer, the duplicate, the schema, the unknown document (each beside the
    // judge's undecided claims).
    for (const id of ['c-03', 'c-04', 'c-11', 'c-12'] as const) {
      const line = result.lines.find((l) => l.id === id)!
      expect([line.verdict.status, line.verdict.reasons[0]!.check]).toEqual(['rejected', COMMON[id][1][0]])
    }
    const kept = result.lines.find((line) => line.id === 'c-01')!
    expect(kept.verdict.status).toBe('undecided')
    expect(kept.verdict.reasons[0]!.message).toMatch(/faithfulness judge: .*failed after 1 attempt.*500/)
    expect(result.stdout).toMatch(
      /^golden verify \(model:claude-haiku-4-5-20251001\): 15 candidates: 0 kept, \d+ rejected, \d+ undecided;/m,
    )
  })
})
