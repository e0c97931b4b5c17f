import { readFileSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { GoldenQuestionSchema, type GoldenQuestion } from '../contract/golden-set-schema.ts'
import { TEST_API_KEY } from '../model/testing/test-client.ts'
import { useScriptedServer } from '../model/testing/use-scripted-server.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { ragEvalInProcess } from './testing/rag-eval-in-process.ts'

// `golden draft --probes`: cross-tenant probes drafted by the local Messages API server from a corpus whose front
// matter keeps acme's page from globex and globex's from acme, then golden check and golden verify on them.

const local = useScriptedServer()
const temp = useTempDirs()

const CORPUS = resolve('fixtures/corpora/tenants')
/** Who may read each document, as its front matter says (the shared page: everyone). */
const OWNER: Record<string, string> = { 'acme/escalation': 'acme', 'globex/billing': 'globex' }

function project() {
  const dir = temp.make('golden-draft-probes-')
  const config = join(dir, 'rag-eval.config.ts')
  const goldenSet = join(dir, 'golden-set.json')
  writeFileSync(config, `export default { corpus: ${JSON.stringify(CORPUS)}, goldenSet: ${JSON.stringify(goldenSet)} }\n`)
  const env = {
    ...process.env,
    EVAL_MODE: '',
    EVAL_MAX_USD: '',
    EVAL_CACHE_DIR: join(dir, 'cache'),
    ANTHROPIC_API_KEY: TEST_API_KEY,
    ANTHROPIC_BASE_URL: local.server.url,
  }
  const run = (args: string[]) => ragEvalInProcess([...args, '--config', config], { env })
  return { dir, goldenSet, run }
}

const readLines = (file: string): unknown[] =>
  readFileSync(file, 'utf8')
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as unknown)

const probesOf = (file: string): GoldenQuestion[] =>
  readLines(file)
    .map((line) => GoldenQuestionSchema.parse(line))
    .filter((q) => q.probeDocIds !== undefined)

describe('golden draft --probes', () => {
  it('drafts probes asked by a tenant the front matter keeps from their document; golden check and verify accept them', async () => {
    const p = project()
    const out = join(p.dir, 'drafts.jsonl')
    const drafted = await p.run(['golden', 'draft', '--count', '2', '--probes', '4', '--out', out, '--yes'])
    expect(drafted.stderr).toBe('')
    expect(drafted.code).toBe(0)
    expect(drafted.stdout).toContain(
      '(single 1, multi 1, contradiction 0, none 0) and 4 cross-tenant probe(s) from 3 document(s)',
    )
    expect(drafted.stdout).toContain('; cross-tenant probes 4 of 4\n')
    const probes = probesOf(out)
    // Two restricted documents, one tenant kept from each: each pair twice, from the document's two passages in turn.
    expect(probes.map((q) => [q.probeDocIds, q.userContext]).sort()).toEqual(
      [
        [['acme/escalation'], { tenant: 'globex' }],
        [['acme/escalation'], { tenant: 'globex' }],
        [['globex/billing'], { tenant: 'acme' }],
        [['globex/billing'], { tenant: 'acme' }],
      ].sort(),
    )
    for (const q of probes) {
      expect(q).toMatchObject({ type: 'none', answerDocIds: [], provenance: { origin: 'drafted' } })
      expect(q.goldAnswer).toBeUndefined()
      expect(q.notes).toMatch(new RegExp(`^Cross-tenant probe: answered only by ${q.probeDocIds![0]}, which its asker`))
    }
    expect(new Set(probes.map((q) => q.question)).size).toBe(4)
    console.log('PROBES', JSON.stringify(probes, null, 1), drafted.stdout)

    // golden check: no probe-readable (nor none-too-easy) finding on the drafted set.
    const questions = readLines(out)
    writeFileSync(p.goldenSet, JSON.stringify({ questions }))
    const checked = await p.run(['golden', 'check', '--json'])
    expect(checked.stderr).toBe('')
    const findings = (JSON.parse(checked.stdout) as { findings: { rule: string; questionId: string | null }[] }).findings
    const probeIds = new Set(probes.map((q) => q.id))
    expect(findings.filter((f) => f.questionId !== null && probeIds.has(f.questionId))).toEqual([])

    // golden verify: a probe is kept; the same question without its asker is answerable (its document answers it).
    writeFileSync(p.goldenSet, JSON.stringify({ questions: [] }))
    const bare = probes.map(({ userContext: _, probeDocIds: __, ...q }) => ({ ...q, id: `bare-${q.id}` }))
    writeFileSync(join(p.dir, 'candidates.jsonl'), [...probes, ...bare].map((q) => JSON.stringify(q)).join('\n') + '\n')
    const verifiedFile = join(p.dir, 'verified.jsonl')
    const verified = await p.run(['golden', 'verify', join(p.dir, 'candidates.jsonl'), '--out', verifiedFile])
    expect(verified.stderr).toBe('')
    expect(verified.code).toBe(0)
    const verdicts = readLines(verifiedFile) as { id: string; verdict: { status: string; reasons: { check: string }[] } }[]
    for (const v of verdicts) {
      const answerable = v.verdict.reasons.some((r) => r.check === 'answerable-none')
      expect(answerable, v.id).toBe(v.id.startsWith('bare-'))
    }
  })

  it('never drafts a probe asked by one who may read its document', async () => {
    const p = project()
    const personas = [{ tenant: 'acme' }, { tenant: 'globex' }, { tenant: 'initech' }]
    writeFileSync(join(p.dir, 'personas.json'), JSON.stringify(personas))
    const out = join(p.dir, 'drafts.jsonl')
    const args = ['golden', 'draft', '--count', '1', '--probes', '8', '--user-contexts', join(p.dir, 'personas.json')]
    const drafted = await p.run([...args, '--out', out, '--yes'])
    expect(drafted.stderr).toBe('')
    expect(drafted.code).toBe(0)
    const probes = probesOf(out)
    expect(probes).toHaveLength(8)
    for (const q of probes) expect(q.userContext!.tenant, q.id).not.toBe(OWNER[q.probeDocIds![0]!])
    // Both documents, each with both of its other askers.
    expect(new Set(probes.map((q) => `${q.probeDocIds![0]} by ${String(q.userContext!.tenant)}`))).toEqual(
      new Set(['acme/escalation by globex', 'acme/escalation by initech', 'globex/billing by acme', 'globex/billing by initech']),
    )
  })
  it('says so when no document is kept from any asker, and drafts no probe', async () => {
    const p = project()
    const out = join(p.dir, 'drafts.jsonl')
    const args = ['golden', 'draft', '--corpus', 'fixtures/corpora/drafting', '--count', '1', '--probes', '2']
    const drafted = await p.run([...args, '--out', out, '--yes'])
    expect(drafted.stderr).toBe('')
    expect(drafted.stdout).toContain(
      "note: probes: 0 of 2 planned: no document is kept from any of 0 asker(s) (front matter access: tenants, or --user-contexts for the config's access rule)\n",
    )
    expect(probesOf(out)).toEqual([])
  })
})
