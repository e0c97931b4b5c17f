import * as realFs from 'node:fs'
import { copyFileSync, readdirSync, readFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { EvalConfigSchema } from '../../contract/eval-config-schema.ts'
import { GoldenQuestionSchema, type GoldenQuestion } from '../../contract/golden-set-schema.ts'
import { InputError } from '../../contract/input-error.ts'
import { loadCorpus } from '../../load/corpus.ts'
import { loadGoldenSet } from '../../load/golden-set.ts'
import { useTempDirs } from '../../testing/use-temp-dirs.ts'
import { acceptedQuestion, planAppend } from './append-accepted.ts'
import type { ReviewDraft } from './kept-drafts.ts'
import { acceptAllKept, pendingDrafts, runReview, unreviewedInGolden, type ReviewAction } from './review-session.ts'
import { lockReview, readReviewState, writeReviewState } from './review-state.ts'

// A failure while the golden set is written (a crash before the rename, a disk full mid-write) must leave it
// byte for byte as it was: node:fs is wrapped so that a test can make the golden set's write fail.
const faults = vi.hoisted(() => ({ renameTo: null as string | null, partialWriteOf: null as string | null }))
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>()
  return {
    ...fs,
    renameSync: (from: realFs.PathLike, to: realFs.PathLike) => {
      if (faults.renameTo !== null && String(to) === faults.renameTo)
        throw Object.assign(new Error(`EIO: i/o error, rename '${String(from)}' -> '${String(to)}'`), { code: 'EIO' })
      return fs.renameSync(from, to)
    },
    writeFileSync: (path: realFs.PathOrFileDescriptor, data: string | NodeJS.ArrayBufferView, ...rest: unknown[]) => {
      if (faults.partialWriteOf !== null && typeof path === 'string' && path.startsWith(`${faults.partialWriteOf}.`)) {
        const bytes = Buffer.from(typeof data === 'string' ? data : Buffer.from(data.buffer))
        fs.writeFileSync(path, bytes.subarray(0, bytes.length >> 1))
        throw Object.assign(new Error(`ENOSPC: no space left on device, write '${path}'`), { code: 'ENOSPC' })
      }
      return (fs.writeFileSync as (...args: unknown[]) => void)(path, data, ...rest)
    },
  }
})

const temp = useTempDirs()
const CORPUS = 'fixtures/corpora/drafting'
const docs = loadCorpus(CORPUS)
const config = EvalConfigSchema.parse({})
const drafts: ReviewDraft[] = readFileSync('fixtures/golden-review/candidates.jsonl', 'utf8')
  .trimEnd()
  .split('\n')
  .map((line, i) => {
    const question = GoldenQuestionSchema.parse(JSON.parse(line))
    return {
      id: question.id,
      where: `candidates.jsonl:${i + 1}`,
      question,
      verdict: { status: 'kept', reasons: [] },
      hash: `h${i}`,
    }
  })

function setUp() {
  const dir = temp.make('review-append-')
  const golden = join(dir, 'golden-set.json')
  copyFileSync('fixtures/golden-review/golden-set.json', golden)
  const stateFile = join(dir, 'verified.review.json')
  const state = readReviewState(stateFile, 'verified.jsonl', golden)
  writeReviewState(stateFile, state)
  return { dir, golden, stateFile, state, target: { file: golden, docs, config } }
}

beforeEach(() => {
  faults.renameTo = null
  faults.partialWriteOf = null
})

describe('appending accepted drafts to the golden set', () => {
  it.each([
    ['a crash before the rename', 'renameTo', 'EIO: i/o error, rename'],
    ['a disk full halfway through the temp file', 'partialWriteOf', 'ENOSPC: no space left on device'],
  ] as const)(
    '%s leaves the golden set byte-identical, no temp file behind, and no decision recorded',
    async (_, fault, message) => {
      const s = setUp()
      const goldenBefore = readFileSync(s.golden)
      const stateBefore = readFileSync(s.stateFile)
      faults[fault] = s.golden
      const run = acceptAllKept({
        pending: drafts,
        state: s.state,
        stateFile: s.stateFile,
        target: s.target,
        reviewer: 'ana',
      })
      await expect(run).rejects.toThrow(message)
      expect(readFileSync(s.golden)).toEqual(goldenBefore)
      expect(readdirSync(s.dir).sort()).toEqual(['golden-set.json', 'verified.review.json'])
      expect(readFileSync(s.stateFile)).toEqual(stateBefore)
      expect(s.state.decisions).toEqual({})

      // The same append once the disk is back: every draft goes in, once.
      faults[fault] = null
      const { plan } = await acceptAllKept({
        pending: drafts,
        state: s.state,
        stateFile: s.stateFile,
        target: s.target,
        reviewer: 'ana',
      })
      expect(plan.appended.map((a) => a.question.id)).toEqual(['q-008', 'q-009', 'q-010', 'q-011'])
      expect(loadGoldenSet(s.golden, docs).map((q) => q.id)).toEqual(['q-001', 'q-007', 'q-008', 'q-009', 'q-010', 'q-011'])
    },
  )

  it('starts the golden set when there is none yet: q-001 on, with its $schema', async () => {
    const s = setUp()
    const first = join(s.dir, 'evals', 'golden-set.json')
    const { plan } = await acceptAllKept({
      pending: drafts,
      state: s.state,
      stateFile: s.stateFile,
      target: { ...s.target, file: first },
      reviewer: 'ana',
    })
    expect(plan.refused).toEqual([])
    expect(loadGoldenSet(first, docs)).toEqual(
      ['q-001', 'q-002', 'q-003', 'q-004'].map((id, i) => acceptedQuestion(drafts[i]!.question, id, { unreviewed: true })),
    )
    // The repository's own schema file, relative to the new file's folder (schemaReference).
    expect(readFileSync(first, 'utf8')).toMatch(
      /^\{\n {2}"\$schema": "[^"]*evals\/golden-set\.schema\.json",\n {2}"questions": \[\n/,
    )
  })

  it('refuses a draft that would break golden:check, naming the errors, and gives the others the ids without a gap', async () => {
    const s = setUp()
    const unsupported: GoldenQuestion = {
      ...drafts[0]!.question,
      id: 'd-101',
      goldAnswer: 'The download link stays valid for 9 days.',
    }
    const repeated: GoldenQuestion = {
      ...drafts[0]!.question,
      id: 'd-102',
      question: 'How long is the rejects file of an import kept?',
      answerDocIds: ['guides/importing-data'],
      goldAnswer: 'The rejects file is kept for 14 days.',
    }
    const items = [unsupported, drafts[1]!.question, repeated].map((question) => ({
      key: question.id,
      build: (id: string) => acceptedQuestion(question, id, { unreviewed: true }),
    }))
    const plan = await planAppend(s.target, items)
    expect(plan.refused.map((r) => r.key)).toEqual(['d-101', 'd-102'])
    expect(plan.refused[0]!.errors.join('\n')).toMatch(/^unsupported-fact: goldAnswer states the number 9,/)
    expect(plan.refused[1]!.errors.join('\n')).toMatch(/^duplicate-question: .*q-007/)
    expect(plan.appended.map((a) => [a.key, a.question.id])).toEqual([['d-002', 'q-008']])
  })

  it('acceptedQuestion keeps the draft and records the review, or that nobody reviewed it', () => {
    const d = drafts[0]!.question
    expect(acceptedQuestion(d, 'q-008', { reviewedBy: 'ana', reviewedAt: '2026-12-02T04:00:00.000Z' })).toEqual({
      ...d,
      id: 'q-008',
      provenance: { ...d.provenance, reviewedBy: 'ana', reviewedAt: '2026-12-02T04:00:00.000Z' },
    })
    expect(acceptedQuestion(d, 'q-008', { unreviewed: true }).provenance).toEqual({ ...d.provenance, unreviewed: true })
    const { provenance: _, ...withoutProvenance } = d
    expect(acceptedQuestion(withoutProvenance, 'q-009', { unreviewed: true }).provenance).toEqual({
      origin: 'imported',
      unreviewed: true,
    })
  })

  it('a decision whose question the golden set does not hold (stopped between the two writes) is undone on the next run', () => {
    const s = setUp()
    s.state.decisions['d-001'] = {
      decision: 'accepted',
      goldenId: 'q-008',
      question: drafts[0]!.question.question,
      edited: false,
      unreviewed: false,
      by: 'ana',
      at: '2026-12-02T04:00:00.000Z',
      draftHash: 'h0',
    }
    s.state.decisions['d-003'] = { decision: 'rejected', by: 'ana', at: '2026-12-02T04:01:00.000Z', draftHash: 'another draft' }
    s.state.decisions['d-004'] = { decision: 'rejected', by: 'ana', at: '2026-12-02T04:02:00.000Z', draftHash: 'h3' }
    const { pending, notes } = pendingDrafts(drafts, s.state, loadGoldenSet(s.golden, docs))
    expect(pending.map((d) => d.id)).toEqual(['d-001', 'd-002', 'd-003'])
    expect(notes).toEqual([
      `d-001 was accepted as q-008, which ${s.golden} does not hold (a review stopped before writing it, or it was removed since): shown again`,
      'd-003 changed since it was rejected on 2026-12-02T04:01:00.000Z: shown again',
    ])
    expect(Object.keys(s.state.decisions)).toEqual(['d-004'])
  })

  it('a damaged review state stops with what is wrong', () => {
    const s = setUp()
    realFs.writeFileSync(s.stateFile, '{"drafts": "x", "goldenSet": "y", "decisions": {"d-001": {"decision": "maybe"}}}')
    expect(() => readReviewState(s.stateFile, 'verified.jsonl', s.golden)).toThrow(InputError)
    expect(() => readReviewState(s.stateFile, 'verified.jsonl', s.golden)).toThrow(
      new RegExp(`^${s.stateFile}: field "decisions.d-001.decision": `),
    )
  })
})

describe('a review session', () => {
  /** runReview with a script's answers in place of a person's, logging into `lines`; the card is the question. */
  function review(s: ReturnType<typeof setUp>, pending: ReviewDraft[], actions: ReviewAction[], edits: string[] = []) {
    const lines: string[] = []
    const state = readReviewState(s.stateFile, 'verified.jsonl', s.golden)
    const tally = runReview({
      pending,
      state,
      stateFile: s.stateFile,
      target: s.target,
      reviewer: 'ana',
      card: (_, question) => Promise.resolve(`card: ${question.question} / ${question.goldAnswer}`),
      prompts: {
        action: () => Promise.resolve(actions.shift()!),
        editQuestion: () => Promise.resolve(edits.shift()!),
        editGoldAnswer: (current) => Promise.resolve(current),
        rejectReason: () => Promise.resolve(''),
      },
      log: (line) => lines.push(line),
    })
    return { lines, tally }
  }

  it('keeps an edit the reviewer quit before accepting, and shows the draft with it next time', async () => {
    const s = setUp()
    const edited = 'How long can the rejects file of an import be downloaded?'
    const first = review(s, drafts, ['edit', 'quit'], [edited])
    expect(await first.tally).toMatchObject({ accepted: [], quit: true })
    expect(readReviewState(s.stateFile, 'verified.jsonl', s.golden).edits).toEqual({
      'd-001': { question: edited, goldAnswer: drafts[0]!.question.goldAnswer, draftHash: 'h0' },
    })
    const second = review(s, drafts.slice(0, 1), ['accept'])
    expect((await second.tally).accepted).toEqual([{ draftId: 'd-001', goldenId: 'q-008' }])
    expect(second.lines.slice(0, 2)).toEqual([
      'd-001: shown with your edit from an earlier session, not accepted yet',
      `card: ${edited} / ${drafts[0]!.question.goldAnswer}`,
    ])
    expect(loadGoldenSet(s.golden, docs).at(-1)!.question).toBe(edited)
    const state = readReviewState(s.stateFile, 'verified.jsonl', s.golden)
    expect(state.edits).toEqual({})
    expect(state.decisions['d-001']).toMatchObject({ decision: 'accepted', edited: true, question: edited })
  })

  it('moves on past a question a colleague removed from the golden set meanwhile', async () => {
    const s = setUp()
    await acceptAllKept({
      pending: drafts.slice(0, 2),
      state: s.state,
      stateFile: s.stateFile,
      target: s.target,
      reviewer: 'bot',
    })
    const unread = unreviewedInGolden(loadGoldenSet(s.golden, docs), s.golden)
    expect(unread.map((q) => q.id)).toEqual(['q-008', 'q-009'])
    // The colleague's edit: q-008 removed.
    const set = JSON.parse(readFileSync(s.golden, 'utf8')) as { questions: { id: string }[] }
    realFs.writeFileSync(s.golden, JSON.stringify({ ...set, questions: set.questions.filter((q) => q.id !== 'q-008') }, null, 2))
    const { lines, tally } = review(s, unread, ['accept', 'accept'])
    expect(await tally).toMatchObject({ accepted: [{ draftId: 'q-009', goldenId: 'q-009' }], quit: false })
    expect(lines).toContain(`q-008: ${s.golden} holds it no more (removed since this review started); moving on`)
    expect(loadGoldenSet(s.golden, docs).find((q) => q.id === 'q-009')!.provenance).toMatchObject({ reviewedBy: 'ana' })
  })

  it('is one at a time on the same drafts: a second is refused, naming who reviews; a stopped one’s lock is taken over', () => {
    const s = setUp()
    const release = lockReview(s.stateFile, 'ana')
    expect(() => lockReview(s.stateFile, 'ben')).toThrow(InputError)
    expect(() => lockReview(s.stateFile, 'ben')).toThrow(
      new RegExp(
        `^ana is reviewing these drafts \\(pid ${process.pid} on .+; ${s.stateFile}\\.lock\\): wait until that review ends`,
      ),
    )
    release()
    lockReview(s.stateFile, 'ben')()
    // A lock left by a process that is gone (killed mid-review): taken over.
    const dead = { pid: 2147483646, host: hostname(), reviewer: 'cy', since: '2026-12-02T04:00:00.000Z' }
    realFs.writeFileSync(`${s.stateFile}.lock`, JSON.stringify(dead))
    const taken = lockReview(s.stateFile, 'ben')
    expect(JSON.parse(readFileSync(`${s.stateFile}.lock`, 'utf8'))).toMatchObject({ pid: process.pid, reviewer: 'ben' })
    taken()
    expect(readdirSync(s.dir).sort()).toEqual(['golden-set.json', 'verified.review.json'])
  })
})
