import { copyFileSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { GoldenQuestionSchema, type GoldenQuestion } from '../contract/golden-set-schema.ts'
import { ReportSchema } from '../contract/report-schema.ts'
import { ReviewStateSchema } from '../authoring/review/review-state.ts'
import { loadCorpus } from '../load/corpus.ts'
import { loadGoldenSet } from '../load/golden-set.ts'
import { KEY, runInPty, type PtyStep } from '../testing/pty-session.ts'
import { ragEvalArgv } from '../testing/rag-eval-bin.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { ragEvalInProcess } from './testing/rag-eval-in-process.ts'

// `rag-eval golden review` as a person and a script use it: the bin in a pseudo-terminal (Python's standard
// pty module), keystrokes sent as each prompt appears, and without a terminal in-process; then golden:check and an
// evaluation over the result.

const temp = useTempDirs()
const CORPUS = resolve('fixtures/corpora/drafting')
const docs = loadCorpus(CORPUS)
const CANDIDATES = 'fixtures/golden-review/candidates.jsonl'
const HAND_WRITTEN = 'fixtures/golden-review/golden-set.json'
const drafts = readFileSync(CANDIDATES, 'utf8')
  .trimEnd()
  .split('\n')
  .map((line) => GoldenQuestionSchema.parse(JSON.parse(line)))
const draft = (id: string) => drafts.find((d) => d.id === id)!
const REVIEWER = 'Ana Reviewer'

interface Project {
  dir: string
  config: string
  golden: string
  verified: string
  env: NodeJS.ProcessEnv
}

/** A user's project (the drafting corpus, two hand-written questions q-001 and q-007), its drafts verified. */
async function project(): Promise<Project> {
  const dir = temp.make('golden-review-')
  const golden = join(dir, 'golden-set.json')
  copyFileSync(HAND_WRITTEN, golden)
  const config = join(dir, 'rag-eval.config.ts')
  const fields = {
    corpus: CORPUS,
    goldenSet: golden,
    system: 'builtin',
    baseline: join(dir, 'baseline'),
    reports: join(dir, 'reports'),
  }
  writeFileSync(config, `export default ${JSON.stringify(fields)}\n`)
  // git's user.name comes from this file alone: the reviewer's name when --reviewer is not given.
  const gitConfig = join(dir, 'gitconfig')
  writeFileSync(gitConfig, `[user]\n\tname = ${REVIEWER}\n`)
  const env = { ...process.env, EVAL_MODE: '', GIT_CONFIG_GLOBAL: gitConfig, GIT_CONFIG_NOSYSTEM: '1', NO_COLOR: '1' }
  const verified = join(dir, 'verified.jsonl')
  const verify = await ragEvalInProcess(['golden', 'verify', CANDIDATES, '--config', config, '--out', verified], { env })
  expect(verify.stderr).toBe('')
  expect(verify.stdout).toContain(
    `golden verify (offline-lexical): 4 candidates: 4 kept, 0 rejected, 0 undecided; verdicts in ${verified}`,
  )
  return { dir, config, golden, verified, env }
}

const REVIEW = (p: Project, ...args: string[]) => [
  process.execPath,
  ...ragEvalArgv(['golden', 'review', '--config', p.config, '--drafts', p.verified, ...args]),
]

const action = (id: string, key: string): PtyStep => ({
  expect: `${id}: accept, edit, reject, skip or quit?`,
  send: `${key}${KEY.enter}`,
})

/** The draft as the golden set holds it once accepted: its fields, a golden id, and the review in its provenance. */
function accepted(d: GoldenQuestion, id: string, review: Record<string, unknown>): GoldenQuestion {
  return { ...d, id, provenance: { ...d.provenance!, ...review } }
}

const isoBetween = (value: string | undefined, from: Date, to: Date) =>
  value !== undefined &&
  /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/.test(value) &&
  new Date(value) >= from &&
  new Date(value) <= to

describe('rag-eval golden review', () => {
  it('in a terminal: accept, edit, reject, quit; a rerun resumes; the golden set passes golden:check and evaluates', async () => {
    const p = await project()
    const before = readFileSync(p.golden, 'utf8')
    const started = new Date()
    const editedQuestion = 'What is the largest CSV file the import wizard accepts?'
    const editedAnswer = 'The import wizard accepts CSV uploads of at most 500 MB.'
    const unsupportedAnswer = 'Each project may have at most 12 active tokens at a time.'
    const first = await runInPty(REVIEW(p), {
      env: p.env,
      cwd: process.cwd(),
      dir: p.dir,
      steps: [
        action('d-001', 'a'),
        action('d-002', 'e'),
        { expect: 'Edit the question', send: '' },
        // The prompt holds the current text, editable: cleared and typed anew.
        { expect: draft('d-002').question, send: `${KEY.clearLine}${editedQuestion}${KEY.enter}` },
        { expect: 'Edit the gold answer', send: '' },
        { expect: draft('d-002').goldAnswer!, send: `${KEY.clearLine}${editedAnswer}${KEY.enter}` },
        action('d-002', 'a'),
        // An edit that breaks golden:check (a figure no answer document states): refused, named, then rejected.
        action('d-003', 'e'),
        { expect: 'Edit the question', send: '' },
        { expect: draft('d-003').question, send: KEY.enter },
        { expect: 'Edit the gold answer', send: '' },
        { expect: draft('d-003').goldAnswer!, send: `${KEY.clearLine}${unsupportedAnswer}${KEY.enter}` },
        action('d-003', 'a'),
        { expect: 'not written: d-003 would break golden:check', send: '' },
        action('d-003', 'r'),
        { expect: 'Why rejected', send: `too close to the guide's wording${KEY.enter}` },
        action('d-004', 'q'),
      ],
    })
    expect(first.code, first.transcript).toBe(0)
    const out = first.transcript
    expect(out).toContain(`${p.verified}: 4 kept, 0 rejected, 0 undecided (only kept drafts are reviewed); 0 decided earlier`)
    expect(out).toContain(`reviewer: ${REVIEWER} (from git config user.name)`)
    // The card: the question, who asks, the gold answer claim by claim, the supporting sentence marked, the system's top-k.
    expect(out).toContain('── draft 2 of 4: d-002')
    expect(out).toContain('userContext: {"role":"support","tenant":"acme"}')
    expect(out).toContain('  >> [1] A single CSV upload in the wizard may be at most 500 MB.')
    expect(out).toMatch(/the configured system \(builtin-bm25\) retrieves \(top 9\):\n\s+1\. guides\/importing-data#\d+ \(gold\)/)
    expect(out).toContain('gold documents: guides/importing-data at rank 1')
    // After the edit, the card shows the new text before the decision.
    expect(out).toContain(`question:    ${editedQuestion}`)
    expect(out).toContain(`accepted d-001: appended to ${p.golden} as q-008`)
    expect(out).toContain(`accepted d-002 (edited): appended to ${p.golden} as q-009`)
    expect(out).toMatch(
      new RegExp(
        `not written: d-003 would break golden:check on ${p.golden}:\\n  unsupported-fact: goldAnswer states the numbers? [^\\n]*\\b12\\b[^\\n]*, ` +
          'found in none of its answer docs \\(guides/api-tokens\\)',
      ),
    )
    expect(out).toContain('\nedit it, reject it or skip it\n')
    expect(out).toContain("rejected d-003 (too close to the guide's wording)")
    expect(out).toContain(
      'this session: accepted 2 (d-001 as q-008, d-002 as q-009), rejected 1, skipped 0; 1 still to review: run rag-eval golden review again',
    )
    const afterFirst = new Date()

    const second = await runInPty(REVIEW(p), { env: p.env, cwd: process.cwd(), dir: p.dir, steps: [action('d-004', 'a')] })
    expect(second.code, second.transcript).toBe(0)
    expect(second.transcript).toContain('3 decided earlier')
    expect(second.transcript).toContain('1 to review')
    expect(second.transcript).toContain('── draft 1 of 1: d-004')
    expect(second.transcript).not.toMatch(/draft \d of \d: d-00[123]/)
    expect(second.transcript).toContain(
      'this session: accepted 1 (d-004 as q-010), rejected 0, skipped 0; every kept draft has a decision',
    )
    const finished = new Date()

    // The hand-written questions are byte for byte as they were; the three accepted ones follow, with their provenance.
    const text = readFileSync(p.golden, 'utf8')
    const lastOld = before.lastIndexOf('    }') + '    }'.length
    expect(text.slice(0, lastOld)).toBe(before.slice(0, lastOld))
    const questions = loadGoldenSet(p.golden, docs)
    expect(questions.map((q) => q.id)).toEqual(['q-001', 'q-007', 'q-008', 'q-009', 'q-010'])
    const [q8, q9, q10] = questions.slice(2)
    expect(isoBetween(q8!.provenance?.reviewedAt, started, afterFirst)).toBe(true)
    expect(isoBetween(q10!.provenance?.reviewedAt, afterFirst, finished)).toBe(true)
    expect(q8).toEqual(accepted(draft('d-001'), 'q-008', { reviewedBy: REVIEWER, reviewedAt: q8!.provenance!.reviewedAt }))
    expect(q9).toEqual({
      ...accepted(draft('d-002'), 'q-009', { reviewedBy: REVIEWER, reviewedAt: q9!.provenance!.reviewedAt }),
      question: editedQuestion,
      goldAnswer: editedAnswer,
    })
    expect(q10).toEqual(accepted(draft('d-004'), 'q-010', { reviewedBy: REVIEWER, reviewedAt: q10!.provenance!.reviewedAt }))
    // The decisions, saved beside the drafts.
    const state = ReviewStateSchema.parse(JSON.parse(readFileSync(join(p.dir, 'verified.review.json'), 'utf8')))
    expect(state.decisions['d-001']).toMatchObject({ decision: 'accepted', goldenId: 'q-008', edited: false, unreviewed: false })
    expect(state.decisions['d-002']).toMatchObject({
      decision: 'accepted',
      goldenId: 'q-009',
      edited: true,
      question: editedQuestion,
    })
    expect(state.decisions['d-003']).toMatchObject({
      decision: 'rejected',
      reason: "too close to the guide's wording",
      by: REVIEWER,
    })
    expect(state.decisions['d-004']).toMatchObject({ decision: 'accepted', goldenId: 'q-010' })

    const check = await ragEvalInProcess(['golden', 'check', '--config', p.config], { env: p.env })
    expect(check.code, check.stdout).toBe(0)
    expect(check.stdout).toMatch(/golden:check: 0 errors, /)

    // The evaluation runs over them and tells the drafted questions from the hand-written ones.
    const evaluated = await ragEvalInProcess(['eval', '--config', p.config], { env: { ...p.env, GATE: '', CI: '' } })
    expect(evaluated.code, evaluated.stdout + evaluated.stderr).toBe(0)
    const report = ReportSchema.parse(JSON.parse(readFileSync(join(p.dir, 'reports', 'latest.json'), 'utf8')))
    expect(report.questions.map((q) => [q.id, q.provenance?.reviewedBy ?? null])).toEqual([
      ['q-001', null],
      ['q-007', null],
      ['q-008', REVIEWER],
      ['q-009', REVIEWER],
      ['q-010', REVIEWER],
    ])
    const markdown = readFileSync(join(p.dir, 'reports', 'latest.md'), 'utf8')
    expect(markdown).toContain('questions: 3 drafted by a model (3 reviewed by a person, 0 unreviewed), 2 hand-written\n')
    expect(markdown).not.toContain('accepted without review')
    expect(report.warnings.filter((w) => w.includes('without review'))).toEqual([])
  })

  it('--accept-kept without a terminal appends every kept draft recorded as unreviewed, and reports warn about them', async () => {
    const p = await project()
    // Not while another session reviews the same drafts (its lock beside their state).
    const lock = `${join(p.dir, 'verified.review.json')}.lock`
    writeFileSync(
      lock,
      JSON.stringify({ pid: process.pid, host: hostname(), reviewer: 'Ben', since: '2026-12-03T09:00:00.000Z' }),
    )
    const busy = await ragEvalInProcess(['golden', 'review', '--config', p.config, '--drafts', p.verified, '--accept-kept'], {
      env: p.env,
    })
    expect(busy).toMatchObject({ code: 2, stdout: '' })
    expect(busy.stderr).toBe(
      `golden review: Ben is reviewing these drafts (pid ${process.pid} on ${hostname()}, since 2026-12-03T09:00:00.000Z; ${lock}): wait until that review ends, or delete the lock file if it was stopped\n`,
    )
    rmSync(lock)
    const result = await ragEvalInProcess(['golden', 'review', '--config', p.config, '--drafts', p.verified, '--accept-kept'], {
      env: p.env,
    })
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    expect(result.stdout).toContain(
      `accepting every kept draft unreviewed (--accept-kept, run by ${REVIEWER}, from git config user.name)`,
    )
    expect(result.stdout).toContain(
      `appended 4 questions to ${p.golden} (q-008, q-009, q-010, q-011), recorded as unreviewed: reports warn about them until a person reads them (rag-eval golden review, on a terminal)`,
    )
    const questions = loadGoldenSet(p.golden, docs)
    expect(questions.slice(2)).toEqual(
      ['q-008', 'q-009', 'q-010', 'q-011'].map((id, i) => accepted(drafts[i]!, id, { unreviewed: true })),
    )
    const bytes = readFileSync(p.golden, 'utf8')
    // Run again: every kept draft has its decision, nothing is appended twice.
    const again = await ragEvalInProcess(['golden', 'review', '--config', p.config, '--drafts', p.verified, '--accept-kept'], {
      env: p.env,
    })
    expect(again.code).toBe(0)
    expect(again.stdout).toContain('4 decided earlier')
    expect(again.stdout).toContain(`appended 0 questions to ${p.golden}, recorded as unreviewed`)
    expect(readFileSync(p.golden, 'utf8')).toBe(bytes)

    const evaluated = await ragEvalInProcess(['eval', '--config', p.config], { env: { ...p.env, GATE: '', CI: '' } })
    const warning =
      'the golden set holds 4 questions accepted without review (golden review --accept-kept: drafted by a model, read by nobody): ' +
      'q-008, q-009, q-010, q-011;'
    expect(evaluated.stdout).toContain(`warning: ${warning}`)
    expect(evaluated.stdout).toContain('questions: 4 drafted by a model (0 reviewed by a person, 4 unreviewed), 2 hand-written')
    const markdown = readFileSync(join(p.dir, 'reports', 'latest.md'), 'utf8')
    expect(markdown).toContain(`> warning: ${warning}`)

    // On a terminal, a person reads them: accepted in place (the review recorded), rejected (removed), skipped.
    const read = await runInPty(REVIEW(p), {
      env: p.env,
      cwd: process.cwd(),
      dir: p.dir,
      steps: [
        action('q-008', 'a'),
        action('q-009', 'r'),
        { expect: 'Why rejected', send: KEY.enter },
        action('q-010', 's'),
        action('q-011', 'q'),
      ],
    })
    expect(read.code, read.transcript).toBe(0)
    expect(read.transcript).toContain(
      `${p.golden} holds 4 questions accepted unreviewed (--accept-kept): q-008, q-009, q-010, q-011; shown after the drafts`,
    )
    expect(read.transcript).toContain(`reviewed q-008: ${p.golden} now records ${REVIEWER} as its reviewer`)
    expect(read.transcript).toContain(`rejected q-009: removed from ${p.golden}`)
    const after = loadGoldenSet(p.golden, docs)
    expect(after.map((q) => q.id)).toEqual(['q-001', 'q-007', 'q-008', 'q-010', 'q-011'])
    expect(after[2]).toEqual(
      accepted(drafts[0]!, 'q-008', { reviewedBy: REVIEWER, reviewedAt: after[2]!.provenance!.reviewedAt }),
    )
    expect(after.slice(3)).toEqual(questions.slice(4))
    const state = ReviewStateSchema.parse(JSON.parse(readFileSync(join(p.dir, 'verified.review.json'), 'utf8')))
    expect(state.decisions['d-001']).toMatchObject({ decision: 'accepted', goldenId: 'q-008', unreviewed: false, by: REVIEWER })
    expect(state.decisions['d-002']).toMatchObject({ decision: 'rejected', by: REVIEWER })
  })

  it('refuses without a terminal and without --accept-kept, writing nothing', async () => {
    const p = await project()
    const before = readFileSync(p.golden, 'utf8')
    const result = await ragEvalInProcess(['golden', 'review', '--config', p.config, '--drafts', p.verified], { env: p.env })
    expect(result.code).toBe(2)
    expect(result.stdout).toBe('')
    expect(result.stderr).toBe(
      'golden review: stdin is not a terminal, so golden review cannot show the drafts to a person; run it in a terminal, ' +
        'or pass --accept-kept to append every kept draft recorded as unreviewed (provenance.unreviewed: true; reports warn about them)\n',
    )
    expect(readFileSync(p.golden, 'utf8')).toBe(before)
    expect(existsSync(join(p.dir, 'verified.review.json'))).toBe(false)
  })
})
