import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { GoldenQuestionSchema, type GoldenQuestion } from '../contract/golden-set-schema.ts'
import { loadCorpus, type CorpusDocument } from '../load/corpus.ts'
import { scriptedReply, scriptedResponder } from '../model-server/scripted-responder.ts'
import { parseFaultSpec, withFaults } from '../model-server/fault-injection.ts'
import { BAD_DRAFT_KINDS } from '../model-server/scripted-drafter.ts'
import { TEST_API_KEY } from '../model/testing/test-client.ts'
import { useScriptedServer } from '../model/testing/use-scripted-server.ts'
import { contentTerms } from '../text/text-analyzer.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { ragEvalInProcess, type RagEvalResult } from './testing/rag-eval-in-process.ts'

// `rag-eval golden draft` end to end: the CLI in-process through its dispatcher (golden-draft-paying.test.ts spawns
// the bin), the real SDK, the local Messages API server drafting from the material it is sent (its drafts say
// nothing about Claude's).

const local = useScriptedServer()
const temp = useTempDirs()

function draft(args: string[], env: Record<string, string> = {}): Promise<RagEvalResult> {
  return ragEvalInProcess(['golden', 'draft', ...args], {
    env: {
      ...process.env,
      EVAL_MODE: '',
      EVAL_MAX_USD: '',
      ANTHROPIC_API_KEY: TEST_API_KEY,
      ANTHROPIC_BASE_URL: local.server.url,
      ...env,
    },
  })
}

const readDrafts = (file: string): GoldenQuestion[] =>
  readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => GoldenQuestionSchema.parse(JSON.parse(line)))

const repoCorpus = loadCorpus('corpus')
const fixtureCorpus = loadCorpus('fixtures/corpora/drafting')
const FIXTURE = 'fixtures/corpora/drafting'

/** The figures a text states (ids such as doc-020 and versions aside), as digits. */
const figuresOf = (text: string) => (text.match(/(?<![\w.-])\d[\d,]*(?:\.\d+)?/g) ?? []).map((n) => n.replace(/,/g, ''))

function bodiesOf(q: GoldenQuestion, docs: readonly CorpusDocument[]): string {
  return q.answerDocIds.map((id) => docs.find((d) => d.id === id)!.body).join('\n')
}

/** Figures of the gold answer that none of its answer documents states. */
const unsupportedFigures = (q: GoldenQuestion, docs: readonly CorpusDocument[]) => {
  const stated = new Set(figuresOf(bodiesOf(q, docs)))
  return figuresOf(q.goldAnswer ?? '').filter((n) => !stated.has(n))
}

describe('rag-eval golden draft against the local server', () => {
  it("drafts 40 questions of all four types on this repository's corpus, prints coverage, and a rerun is free", async () => {
    const dir = temp.make('golden-draft-')
    const out = join(dir, 'drafts.jsonl')
    const env = { EVAL_CACHE_DIR: join(dir, 'cache') }
    const first = await draft(['--count', '40', '--out', out, '--yes'], env)
    expect(first.stderr).toBe('')
    expect(first.code).toBe(0)
    const drafts = readDrafts(out)
    // The mix asked for: 40 x (0.55, 0.25, 0.1, 0.1) = 22, 10, 4, 4; each type within one of it.
    const wanted = { single: 22, multi: 10, contradiction: 4, none: 4 }
    for (const [type, n] of Object.entries(wanted)) {
      const got = drafts.filter((q) => q.type === type).length
      expect(got, type).toBeGreaterThan(0)
      expect(Math.abs(got - n), type).toBeLessThanOrEqual(1)
    }
    // Coverage as printed, computed here from the file.
    const uses = new Map<string, number>()
    for (const q of drafts) for (const id of q.answerDocIds) uses.set(id, (uses.get(id) ?? 0) + 1)
    const most = Math.max(...uses.values())
    const mostDoc = [...uses]
      .filter(([, n]) => n === most)
      .map(([id]) => id)
      .sort()[0]
    expect(first.stdout).toContain(
      `coverage: ${uses.size} of 49 documents (${Math.round((100 * uses.size) / 49)}%) answer at least one draft; ` +
        `most uses of one document: ${most} (${mostDoc})`,
    )
    expect(uses.size).toBeGreaterThanOrEqual(30)
    expect(first.stdout).toMatch(/^cost estimate before any model call/m)
    expect(first.stdout.split('\n')[0]).toBe(`planning 40 draft(s) over ${repoCorpus.length} document(s)`)
    // Every draft: ids in order, provenance, answer documents of the corpus, figures its documents state, no two alike.
    expect(drafts.map((q) => q.id)).toEqual(drafts.map((_, i) => `d-${String(i + 1).padStart(3, '0')}`))
    expect(new Set(drafts.map((q) => q.question.toLowerCase())).size).toBe(drafts.length)
    for (const q of drafts) {
      expect(q.provenance).toMatchObject({ origin: 'drafted', model: 'claude-sonnet-5' })
      expect(q.provenance?.promptHash).toMatch(/^[0-9a-f]{16}$/)
      if (q.type !== 'none') expect(unsupportedFigures(q, repoCorpus), q.id).toEqual([])
    }
    // Contradictions: the governing document supersedes the other (the corpus's notices state it).
    for (const q of drafts.filter((d) => d.type === 'contradiction')) {
      const governing = repoCorpus.find((d) => d.id === q.governingDocId)!
      const other = q.answerDocIds.find((id) => id !== q.governingDocId)
      expect(governing.supersedes, q.id).toBe(other)
      expect(q.notes).toContain(`Governing: ${governing.id}, ${governing.id} supersedes ${other}.`)
    }
    for (const q of drafts.filter((d) => d.type === 'multi')) expect(new Set(q.answerDocIds).size).toBeGreaterThanOrEqual(2)

    const sent = local.server.requests.length
    // Over the drafts just written: refused without --force, before any call; with it, all from the cache.
    const refused = await draft(['--count', '4', '--out', out, '--yes'], env)
    expect(refused).toMatchObject({ code: 2, stdout: '' })
    expect(refused.stderr).toBe(
      `golden draft: ${out} exists: pass --force to replace its drafts (and what golden verify and review made of them), or --out another file\n`,
    )
    expect(readDrafts(out)).toHaveLength(drafts.length)
    const again = await draft(['--count', '40', '--out', out, '--yes', '--force'], env)
    expect(again.code).toBe(0)
    expect(local.server.requests).toHaveLength(sent)
    expect(again.stdout).toContain(`model calls: 0 to the API, ${sent} from the cache, 0 retries; $0.0000`)
    const strip = (qs: GoldenQuestion[]) => qs.map((q) => ({ ...q, provenance: { ...q.provenance, draftedAt: '' } }))
    expect(strip(readDrafts(out))).toEqual(strip(drafts))
  })

  it('stops at EVAL_MAX_USD with nothing lost; a rerun resumes from the cache and pays only for the rest', async () => {
    const dir = temp.make('golden-draft-cap-')
    const out = join(dir, 'drafts.jsonl')
    const env = { EVAL_CACHE_DIR: join(dir, 'cache') }
    const args = ['--corpus', FIXTURE, '--count', '12', '--out', out, '--yes']
    const stopped = await draft(args, { ...env, EVAL_MAX_USD: '0.05' })
    expect(stopped.code).toBe(2)
    expect(stopped.stderr).toMatch(
      /^golden draft: EVAL_MAX_USD=\$0\.0500 reached: \S+ draft:\w+ \(claude-sonnet-5\) was not sent/,
    )
    expect(stopped.stderr).toContain(`nothing written to ${out}`)
    expect(existsSync(out)).toBe(false)
    const paid = local.server.requests.length
    expect(paid).toBeGreaterThan(0)
    const planned = Number(/(\d+) call\(s\) planned/.exec(stopped.stdout)?.[1])
    expect(paid).toBeLessThan(planned)

    const resumed = await draft(args, env)
    expect(resumed.code).toBe(0)
    expect(resumed.stdout).toContain(`model calls: ${planned - paid} to the API, ${paid} from the cache, 0 retries`)
    expect(local.server.requests).toHaveLength(planned)
    expect(readDrafts(out).length).toBeGreaterThanOrEqual(10)
  })

  it('drafts a corpus of another shape for personas, and on request the bad drafts a verifier must catch', async () => {
    local.server.setResponder(scriptedResponder({ badDrafts: BAD_DRAFT_KINDS }))
    const dir = temp.make('golden-draft-fixture-')
    const out = join(dir, 'drafts.jsonl')
    const personas = [{ role: 'support', tenant: 'acme' }, { role: 'finance' }]
    writeFileSync(join(dir, 'personas.json'), JSON.stringify(personas))
    const result = await draft(
      ['--corpus', FIXTURE, '--count', '30', '--user-contexts', join(dir, 'personas.json'), '--out', out, '--yes'],
      { EVAL_CACHE_DIR: join(dir, 'cache') },
    )
    expect(result.stderr).toBe('')
    expect(result.code).toBe(0)
    const drafts = readDrafts(out)
    // Ids from paths (no front matter ids), folders as strata: every document answers a draft.
    expect(result.stdout).toContain('coverage: 8 of 8 documents (100%) answer at least one draft')
    expect(new Set(drafts.flatMap((q) => q.answerDocIds))).toEqual(new Set(fixtureCorpus.map((d) => d.id)))
    // The fixture holds one contradiction (a notice superseding the retention policy) and six related pairs: said so.
    expect(result.stdout).toContain('note: contradiction: 1 candidate pair(s) for 3 wanted')
    const contradiction = drafts.find((q) => q.type === 'contradiction')!
    expect(contradiction.governingDocId).toBe('notices/retention-change-2026')
    // Each draft asked for one of the two personas, as its userContext.
    for (const q of drafts) expect(personas).toContainEqual(q.userContext)
    expect(new Set(drafts.map((q) => JSON.stringify(q.userContext))).size).toBe(2)

    const singles = drafts.filter((q) => q.type === 'single')
    const leaked = singles.filter((q) => q.goldAnswer!.replace(/\.$/, '').startsWith(q.question.replace(/\?$/, '')))
    const unsupported = drafts.filter((q) => q.type !== 'none' && unsupportedFigures(q, fixtureCorpus).length > 0)
    const texts = drafts.map((q) => q.question)
    const duplicates = texts.filter((t, i) => texts.indexOf(t) !== i)
    const bodies = fixtureCorpus.map((d) => d.body.replace(/[*`]/g, ''))
    // Not really multi: one document states every sentence of the gold answer.
    const notMulti = drafts.filter(
      (q) =>
        q.type === 'multi' && bodies.some((body) => q.goldAnswer!.split(/(?<=\.) /).every((sentence) => body.includes(sentence))),
    )
    // Answerable none: one document holds every content term of the question (the persona's words aside).
    const answerable = drafts.filter((q) => {
      if (q.type !== 'none') return false
      const terms = contentTerms(q.question.replace(/^I'm in [^.]*\. /, '')).filter((t) => !['mani', 'what'].includes(t))
      return fixtureCorpus.some((d) => {
        const own = new Set(contentTerms(d.body))
        return terms.every((t) => own.has(t))
      })
    })
    expect(leaked.length, 'leaked').toBeGreaterThan(0)
    expect(unsupported.length, 'unsupported').toBeGreaterThan(0)
    expect(duplicates.length, 'duplicate').toBeGreaterThan(0)
    expect(notMulti.length, 'not multi').toBeGreaterThan(0)
    expect(answerable.length, 'answerable none').toBeGreaterThan(0)
  })

  it('records the drafting calls and drafts again from the recording alone', async () => {
    const dir = temp.make('golden-draft-record-')
    const recordings = join(dir, 'recordings')
    const args = ['--corpus', FIXTURE, '--count', '8', '--yes']
    const env = { EVAL_CACHE_DIR: join(dir, 'cache'), EVAL_RECORDINGS_DIR: recordings }
    const recorded = await draft([...args, '--out', join(dir, 'recorded.jsonl')], { ...env, EVAL_MODE: 'record' })
    expect(recorded.stderr).toBe('')
    expect(recorded.code).toBe(0)
    const metadata = JSON.parse(readFileSync(join(recordings, 'golden-draft', 'metadata.json'), 'utf8')) as Record<
      string,
      unknown
    >
    expect(metadata).toMatchObject({ complete: true, scripted: true, models: { generator: 'claude-sonnet-5' } })
    const replayed = await draft([...args, '--out', join(dir, 'replayed.jsonl')], {
      ...env,
      EVAL_MODE: 'replay',
      ANTHROPIC_API_KEY: '',
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:9',
    })
    expect(replayed.stderr).toBe('')
    expect(replayed.code).toBe(0)
    const strip = (qs: GoldenQuestion[]) => qs.map((q) => ({ ...q, provenance: { ...q.provenance, draftedAt: '' } }))
    expect(strip(readDrafts(join(dir, 'replayed.jsonl')))).toEqual(strip(readDrafts(join(dir, 'recorded.jsonl'))))
  })

  it('a server failing for good, or a file system refusing the drafts, is one clear line (exit 1), no stack trace', async () => {
    const dir = temp.make('golden-draft-faults-')
    const args = ['--corpus', FIXTURE, '--count', '4', '--yes']
    local.server.setResponder(withFaults(scriptedReply, parseFaultSpec('500')))
    const failing = await draft([...args, '--out', join(dir, 'd.jsonl')], {
      EVAL_CACHE_DIR: join(dir, 'cache'),
      EVAL_MAX_RETRIES: '0',
    })
    expect(failing).toMatchObject({ code: 1 })
    expect(failing.stderr).toMatch(
      /^golden draft: \S+ draft:\w+ \(claude-sonnet-5\) failed after 1 attempts \(EVAL_MAX_RETRIES=0\): HTTP 500 [^\n]*\n$/,
    )
    // Drafted, then the file cannot be written (a folder the system will not let anyone create).
    local.server.setResponder(scriptedReply)
    const unwritable = await draft([...args, '--out', '/sys/rag-eval-test/d.jsonl'], { EVAL_CACHE_DIR: join(dir, 'cache') })
    expect(unwritable).toMatchObject({ code: 1 })
    expect(unwritable.stderr).toMatch(/^golden draft: E[A-Z]+: [^\n]*'\/sys\/rag-eval-test'\n$/)
  })

  it('refuses bad input with one precise line, and asks before spending unless --yes', async () => {
    const dir = temp.make('golden-draft-errors-')
    const mix = await draft(['--mix', 'single=0.5,multi=0.4'])
    expect(mix.code).toBe(2)
    expect(mix.stderr.split('\n')[0]).toBe(
      'golden draft: --mix single=0.5,multi=0.4: the shares add up to 0.9, not 1; expected type=share,... such as ' +
        'single=0.55,multi=0.25,contradiction=0.1,none=0.1',
    )
    writeFileSync(join(dir, 'personas.json'), '[{"role": "support"}, "admin"]')
    const personas = await draft(['--corpus', FIXTURE, '--user-contexts', join(dir, 'personas.json')])
    expect(personas.code).toBe(2)
    expect(personas.stderr).toBe(
      `golden draft: --user-contexts ${join(dir, 'personas.json')}: persona 2: expected a JSON object such as ` +
        `{"tenant": "acme", "role": "admin"}; expected a JSON list of objects such as [{"role": "support", "tenant": "acme"}]\n`,
    )
    const noKey = await draft(['--corpus', FIXTURE], { ANTHROPIC_API_KEY: '' })
    expect(noKey.code).toBe(2)
    expect(noKey.stderr).toMatch(/^golden draft: golden draft calls the Anthropic API and needs ANTHROPIC_API_KEY/)
    // The estimate alone calls nothing: no key needed.
    const estimate = await draft(['--corpus', FIXTURE, '--count', '4', '--out', join(dir, 'd.jsonl'), '--estimate'], {
      ANTHROPIC_API_KEY: '',
      EVAL_CACHE_DIR: join(dir, 'cache'),
    })
    expect(estimate).toMatchObject({ code: 0, stderr: '' })
    expect(estimate.stdout).toMatch(/^cost estimate before any model call \(dry run: every drafting prompt as it will be sent/m)
    const unconfirmed = await draft(['--corpus', FIXTURE, '--count', '4', '--out', join(dir, 'd.jsonl')], {
      EVAL_CACHE_DIR: join(dir, 'cache'),
    })
    expect(unconfirmed.code).toBe(2)
    expect(unconfirmed.stdout).toMatch(/^cost estimate before any model call/m)
    expect(unconfirmed.stderr).toBe(
      'golden draft: not drafted: stdin is not a terminal, so golden draft cannot ask to go ahead; pass --yes\n',
    )
    expect(local.server.requests).toHaveLength(0)
    expect(existsSync(join(dir, 'd.jsonl'))).toBe(false)
  })
})
