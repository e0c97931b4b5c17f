import { copyFileSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { GoldenQuestionSchema } from '../contract/golden-set-schema.ts'
import { ReportSchema } from '../contract/report-schema.ts'
import { loadCorpus } from '../load/corpus.ts'
import { loadGoldenSet } from '../load/golden-set.ts'
import { TEST_API_KEY } from '../model/testing/test-client.ts'
import { useScriptedServer } from '../model/testing/use-scripted-server.ts'
import { ragEvalChild } from '../testing/rag-eval-child.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { ragEvalInProcess } from './testing/rag-eval-in-process.ts'

// `rag-eval golden harvest` on a production log with repeated questions, a key, emails, phone numbers and questions
// the golden set already asks; then golden verify, golden review --accept-kept and an evaluation over the result.

const temp = useTempDirs()
const local = useScriptedServer()
const CORPUS = resolve('fixtures/corpora/drafting')
const FIXTURES = resolve('fixtures/golden-harvest')
const LOG = join(FIXTURES, 'production-log.jsonl')
/** What the log holds that no written file may: a key, emails, phone numbers. */
const PRIVATE = ['sk-proj-Xq7LmN2pRtV9wY4zAbCdEf', 'ops@acme-corp.example', 'li.wei@example.org', '415 555 0134', '020 7946 0958']

function project() {
  const dir = temp.make('golden-harvest-')
  const golden = join(dir, 'golden-set.json')
  copyFileSync('fixtures/golden-review/golden-set.json', golden)
  const config = join(dir, 'rag-eval.config.ts')
  const fields = {
    corpus: CORPUS,
    goldenSet: golden,
    system: 'builtin',
    baseline: join(dir, 'baseline'),
    reports: join(dir, 'reports'),
  }
  writeFileSync(config, `export default ${JSON.stringify(fields)}\n`)
  const env = { ...process.env, EVAL_MODE: '', GATE: '', CI: '', NO_COLOR: '1', EVAL_CACHE_DIR: join(dir, 'cache') }
  return { dir, golden, config, env, out: join(dir, 'harvested.jsonl'), report: join(dir, 'harvest-report.md') }
}

/** Every file under a folder, with its text. */
function filesUnder(dir: string): { file: string; text: string }[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((name) => join(dir, name))
    .filter((file) => statSync(file).isFile())
    .map((file) => ({ file, text: readFileSync(file, 'utf8') }))
}

const lines = (file: string) =>
  readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>)

describe('rag-eval golden harvest', () => {
  it('harvests a log into redacted, merged candidates that pass verify and review into a run', async () => {
    const p = project()
    const harvest = await ragEvalInProcess(
      ['golden', 'harvest', LOG, '--config', p.config, '--out', p.out, '--report', p.report],
      { env: p.env },
    )
    expect(harvest.stderr).toBe('')
    expect(harvest.code).toBe(0)
    expect(harvest.stdout).toContain(
      `golden harvest: 8 production questions (${LOG}: 8 questions); redacted 1 API key, 3 emails, 2 phone numbers\n` +
        '  2 already in the golden set, 2 near-duplicates merged, 2 of 3 topics with no golden question\n',
    )
    const candidates = lines(p.out).map((c) => GoldenQuestionSchema.parse(c))
    // Negative feedback or an error first (lines 1, 3, 8), then line 5; lines 2 and 6 merged into 1; 4 and 7 in the golden set.
    expect(candidates.map((c) => [c.id, c.type, c.question, c.answerDocIds, c.goldAnswer, c.provenance?.line])).toEqual([
      [
        'h-001',
        'single',
        'How long does an API token stay valid before it expires?',
        ['guides/api-tokens'],
        'A token expires after 60 days unless it is renewed.',
        1,
      ],
      [
        'h-002',
        'single',
        'My key [REDACTED] is refused: how many active tokens may one project have at a time?',
        ['guides/api-tokens'],
        'Each project may have at most 10 active tokens at a time.',
        3,
      ],
      [
        'h-003',
        'single',
        'How often are access reviews held for a project?',
        ['policies/access-reviews'],
        'Every quarter, each project owner reviews who can read the project.',
        8,
      ],
      [
        'h-004',
        'single',
        'Please write to [email] or call [phone]: how large may one CSV upload in the import wizard be?',
        ['guides/importing-data'],
        'A single CSV upload in the wizard may be at most 500 MB.',
        5,
      ],
    ])
    expect(candidates[2]!.userContext).toEqual({ role: 'owner', contact: '[email]' })
    expect(candidates[2]!.history![0]!.content).toBe('Hi, I am Li ([email], [phone]).')
    expect(candidates[0]!.provenance).toEqual({
      origin: 'harvested',
      source: LOG,
      line: 1,
      askedAt: '2026-11-30T10:02:11Z',
      harvestedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    })
    // The merged pairs are named in the candidate's notes and in the report, as are the golden set's repeats.
    expect(candidates[0]!.notes).toContain(
      `(asked 3 times; merged: ${LOG}:2 "how long does an api token stay valid before it expires", the same question; ` +
        `${LOG}:6 "How long does the API token stay valid before it expires, roughly?", a near-duplicate (content-term Jaccard 0.88))` +
        `; negative feedback at ${LOG}:1; production answered "Tokens last 30 days."; production retrieved policies/access-reviews`,
    )
    const report = readFileSync(p.report, 'utf8')
    expect(report).toContain(
      `- ${LOG}:4 "How long do deleted projects stay recoverable?" is the same question as q-001 ("How long do deleted projects stay recoverable?")\n` +
        `- ${LOG}:7 "How long is the rejects file of an import kept for?" is a near-duplicate (content-term Jaccard 1.00) as q-007 ("How long is the rejects file of an import kept?")\n`,
    )
    expect(report).toContain(
      '## Not covered by the golden set (2)\n\n' +
        '- guides/api-tokens (API Tokens): 2 questions asked 4 times, no golden question: "How long does an API token stay valid before it expires?", "My key [REDACTED] is refused: how many active tokens may one project have at a time?"\n' +
        '- policies/access-reviews (Access Reviews): 1 question asked 1 time, no golden question: "How often are access reviews held for a project?"\n',
    )

    // A second harvest does not replace the candidates without --force.
    const again = await ragEvalInProcess(['golden', 'harvest', LOG, '--config', p.config, '--out', p.out], { env: p.env })
    expect([again.code, again.stderr]).toEqual([
      2,
      `golden harvest: ${p.out} exists: pass --force to replace it, or --out another file\n`,
    ])

    const verified = join(p.dir, 'verified.jsonl')
    const verify = await ragEvalInProcess(['golden', 'verify', p.out, '--config', p.config, '--out', verified], { env: p.env })
    expect(verify.stdout).toContain('golden verify (offline-lexical): 4 candidates: 4 kept, 0 rejected, 0 undecided;')
    const review = await ragEvalInProcess(
      ['golden', 'review', '--config', p.config, '--drafts', verified, '--accept-kept', '--reviewer', 'Ana'],
      { env: p.env },
    )
    expect(review.stderr).toBe('')
    expect(review.stdout).toContain(`appended 4 questions to ${p.golden} (q-008, q-009, q-010, q-011)`)
    const docs = loadCorpus(CORPUS)
    const golden = loadGoldenSet(p.golden, docs)
    expect(golden.slice(2).map((q) => [q.id, q.question, q.provenance?.origin, q.provenance?.unreviewed])).toEqual(
      candidates.map((c, i) => [['q-008', 'q-009', 'q-010', 'q-011'][i], c.question, 'harvested', true]),
    )

    const evaluated = await ragEvalInProcess(['eval', '--config', p.config], { env: p.env })
    expect(evaluated.stdout).toContain('questions: 4 harvested from production, 2 hand-written')
    const run = ReportSchema.parse(JSON.parse(readFileSync(join(p.dir, 'reports', 'latest.json'), 'utf8')))
    expect(run.questions.filter((q) => q.provenance?.origin === 'harvested').map((q) => [q.id, q.hit])).toEqual([
      ['q-008', true],
      ['q-009', true],
      ['q-010', true],
      ['q-011', true],
    ])
    // No key, email or phone number in any file written: candidates, report, verdicts, golden set, run reports.
    const log = readFileSync(LOG, 'utf8')
    for (const secret of PRIVATE) expect(log).toContain(secret)
    const written = filesUnder(p.dir)
    expect(written.map((w) => w.file)).toEqual(
      expect.arrayContaining([
        p.out,
        p.report,
        verified,
        p.golden,
        join(p.dir, 'reports', 'latest.json'),
        join(p.dir, 'reports', 'latest.md'),
      ]),
    )
    for (const { file, text } of written) for (const secret of PRIVATE) expect(text, file).not.toContain(secret)
  })

  it('reads every format in one run; with a key, the judge proposes the answering passage or a none question', async () => {
    const p = project()
    const files = ['production-log.jsonl', 'otel-spans.json', 'langsmith-dataset.jsonl', 'phoenix-dataset.csv'].map((f) =>
      join(FIXTURES, f),
    )
    const env = { ...p.env, EVAL_MODE: 'live', ANTHROPIC_API_KEY: TEST_API_KEY, ANTHROPIC_BASE_URL: local.server.url }
    const result = await ragEvalChild(
      ['golden', 'harvest', ...files, '--config', p.config, '--out', p.out, '--report', p.report, '--max', '8'],
      env,
    )
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(
      `golden harvest: 14 production questions (${files[0]}: 8 questions; ${files[1]}: 2 questions; ${files[2]}: 2 questions; ${files[3]}: 2 questions)`,
    )
    const candidates = lines(p.out)
    // Negative feedback or an error first (log 1, 3, 8, the failed span, LangSmith's score 0), then file order; Phoenix's
    // first row asks q-001 again ("in days" adds one term: Jaccard 5/6), its second is the one --max 8 leaves out.
    // The scripted judge answers when one passage holds every content term of the question: only h-008's does.
    expect(candidates.map((c) => [c.id, c.type, c.question, c.answerDocIds, c.goldAnswer])).toEqual([
      ['h-001', 'none', 'How long does an API token stay valid before it expires?', [], undefined],
      ['h-002', 'none', 'My key [REDACTED] is refused: how many active tokens may one project have at a time?', [], undefined],
      ['h-003', 'none', 'How often are access reviews held for a project?', [], undefined],
      ['h-004', 'none', 'How long does the download link of an export stay valid?', [], undefined],
      ['h-005', 'none', 'How long is the audit log of access reviews kept?', [], undefined],
      [
        'h-006',
        'none',
        'Please write to [email] or call [phone]: how large may one CSV upload in the import wizard be?',
        [],
        undefined,
      ],
      ['h-007', 'none', 'Which file formats can an export use?', [], undefined],
      [
        'h-008',
        'single',
        'Which files can the bulk API accept?',
        ['guides/importing-data'],
        'The wizard accepts CSV files; the bulk API also accepts Parquet files.',
      ],
    ])
    expect(candidates[7]!.notes).toContain(
      'proposed: the judge (model:claude-haiku-4-5-20251001) reads guides/importing-data#1 as answering it (The chunk holds every term of the question.)',
    )
    expect(result.stdout).toContain('  3 already in the golden set, 2 near-duplicates merged')
    expect(result.stdout).toMatch(/^model: 8 calls, 0 from the cache, USD \d+\.\d{4}$/m)
    expect(readFileSync(p.report, 'utf8')).toContain(
      '- 8 candidates in ' +
        p.out +
        ' (ids h-001...), the questions with negative feedback or a system error first; 1 left out by --max\n',
    )
    const tools = local.server.requests.map((r) => (r.body.tool_choice as { name: string }).name)
    expect(tools).toEqual(Array(8).fill('record_answerability'))
  })
})
