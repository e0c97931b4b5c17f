import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { resolveProjectConfig } from '../config/project-config.ts'
import { decideBaselineAcceptance } from '../gate/accept-decision.ts'
import { ACCEPT_BASELINE } from '../gate/baseline-location.ts'
import { runFailures } from '../gate/run-failures.ts'
import { accessDecision } from '../load/access-rules.ts'
import { loadCorpus } from '../load/corpus.ts'
import { renderMarkdown } from '../report/render-markdown.ts'
import { checkInProcessAnswer } from '../system/http-contract.ts'
import type { RagSystem, RetrievedChunk } from '../system/rag-system.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { evaluate } from './evaluate.ts'

const temp = useTempDirs()
const ACME = 'Acme invoices are due on the twelfth day of each month and are paid by bank transfer only.'
const GLOBEX = 'Globex invoices are due on the first Monday of each quarter and may be paid by card.'

/** acme/billing (front matter: tenant acme), globex/billing (the JSON rules: tenant globex), shared/hours (everyone). */
function tenantProject(): string {
  const root = temp.make('rag-eval-permissions-')
  const write = (path: string, text: string) => {
    mkdirSync(join(root, path, '..'), { recursive: true })
    writeFileSync(join(root, path), text)
  }
  write('corpus/acme/billing.md', `---\naccess:\n  tenants: [acme]\n---\n${ACME}\n`)
  write('corpus/globex/billing.md', `${GLOBEX}\n`)
  write('corpus/shared/hours.md', 'Support answers every weekday from eight in the morning until six in the evening.\n')
  write(
    'access.json',
    JSON.stringify({
      rules: [
        { match: 'globex/**', tenants: ['globex'] },
        { match: '**', roles: ['staff'] },
      ],
    }),
  )
  const single = (id: string, tenant: string | null, question: string, doc: string) => ({
    id,
    type: 'single',
    question,
    answerDocIds: [doc],
    goldAnswer: 'Per the billing page.',
    ...(tenant === null ? {} : { userContext: { tenant, role: 'staff' } }),
  })
  const questions = [
    single('p-1', 'acme', 'When are invoices due?', 'acme/billing'),
    single('p-2', 'globex', 'When are invoices due?', 'globex/billing'),
    single('p-3', null, 'When does support answer?', 'shared/hours'),
    // A cross-tenant probe: globex asks what only acme's page says; the right outcome is a refusal.
    {
      id: 'p-4',
      type: 'none',
      question: 'How does Acme pay its invoices?',
      answerDocIds: [],
      userContext: { tenant: 'globex', role: 'staff' },
    },
  ]
  write('evals/golden-set.json', JSON.stringify({ questions }))
  return root
}

const chunk = (docId: string, text: string): RetrievedChunk => ({ chunkId: `${docId}#0`, docId, score: 1, tokens: 20, text })
const [acme, globex] = [chunk('acme/billing', ACME), chunk('globex/billing', GLOBEX)]

/**
 * p-1: both tenants' pages everywhere, the answer citing and quoting globex's; p-2: globex's alone; p-3: the hours
 * page; p-4: globex's page ranked, the answer quoting acme's (in no ranking: only the answer shows it).
 */
const ignoresTenant: RagSystem = {
  name: 'ignores-tenant',
  async answer({ id }) {
    if (id === 'p-1')
      return {
        stages: [{ name: 'retrieve', ranked: [acme, globex] }],
        ranked: [acme, globex],
        context: [acme, globex],
        answer: `Acme invoices are due on the twelfth [1]. ${GLOBEX.slice(0, -1)} [2].`,
      }
    if (id === 'p-4') return { ranked: [globex], context: [globex], answer: ACME }
    const own = id === 'p-2' ? globex : chunk('shared/hours', 'Support answers every weekday.')
    return { ranked: [own], context: [own], answer: own.text }
  },
}

describe('permission leaks, from an in-process system that ignores the tenant', () => {
  it('each leaking question names the document, where it was seen and who asked; the leak rate fails the gate and -u', async () => {
    const root = tenantProject()
    const project = resolveProjectConfig(
      { goldenSet: 'evals/golden-set.json', access: 'access.json' },
      { root, source: 'test', env: {} },
    )
    const report = await evaluate(project, { tier: 'full', env: {}, system: ignoresTenant, baselineRoot: null })
    const leaks = Object.fromEntries(report.questions.map((q) => [q.id, q.leaks]))
    expect(leaks).toEqual({
      'p-1': [
        { docId: 'globex/billing', where: 'stage', stage: 'retrieve' },
        { docId: 'globex/billing', where: 'ranked' },
        { docId: 'globex/billing', where: 'context' },
        { docId: 'globex/billing', where: 'citation' },
        { docId: 'globex/billing', where: 'answer' },
      ],
      'p-2': [],
      'p-3': undefined,
      'p-4': [{ docId: 'acme/billing', where: 'answer' }],
    })
    // 2 of the 3 questions with a userContext leaked.
    expect(report.summary.leakRate).toBe(0.6667)
    expect(runFailures(report)).toContainEqual({
      name: 'permission leaks on p-1, p-4 (limit 0)',
      baseline: 0,
      current: 0.6667,
      delta: 0.6667,
    })
    expect(runFailures({ ...report, config: { ...report.config, maxLeakRate: 0.7 } }).map((f) => f.name)).toEqual([])
    expect(decideBaselineAcceptance(report, 'baseline')).toEqual({
      accepted: false,
      refusal: `baseline not accepted: permission leaks on 2 question(s): p-1 asked by {"tenant":"acme","role":"staff"} saw globex/billing (stage retrieve, ranked, context, citation, answer); p-4 asked by {"tenant":"globex","role":"staff"} saw acme/billing (answer); a leak is never a known miss: fix what the system shows each asker (latest.md lists the leaks), then run \`${ACCEPT_BASELINE}\` again; baseline/ left as it was`,
    })
    const markdown = renderMarkdown(report)
    expect(markdown).toContain('- permission leak: p-4 asked by {"tenant":"globex","role":"staff"} saw acme/billing (answer)')
    expect(markdown).toContain('may not read): 0.6667, limit 0 (maxLeakRate)')
  })
})

describe('the access decision', () => {
  it('the config function alone, else front matter, else the first matching JSON rule, else everyone; a system declares its own', () => {
    const root = tenantProject()
    const corpus = { dir: join(root, 'corpus'), documents: loadCorpus(join(root, 'corpus')) }
    const rules = accessDecision(join(root, 'access.json'), corpus)
    const asker = (tenant: string, role = 'staff') => ({ tenant, role })
    expect(
      ['acme/billing', 'globex/billing', 'shared/hours'].map((doc) => [rules(asker('acme'), doc), rules(asker('globex'), doc)]),
    ).toEqual([
      [true, false], // front matter: tenants [acme]
      [false, true], // the first rule, globex/**
      [true, true], // the second rule, roles [staff]
    ])
    expect(rules(asker('acme', 'guest'), 'shared/hours')).toBe(false)
    expect(rules({ tenant: 'acme', roles: ['guest', 'staff'] }, 'shared/hours')).toBe(true)
    // The function decides alone and sees the path and front matter.
    const seen: unknown[] = []
    const byFunction = accessDecision((userContext, doc) => (seen.push(doc), userContext.tenant === 'acme'), corpus)
    expect(byFunction(asker('acme'), 'globex/billing')).toBe(true)
    expect(seen).toEqual([{ id: 'globex/billing', path: 'globex/billing.md', frontMatter: {} }])
    // A system owning its documents (corpus: null) declares who reads them; an undeclared one is everyone's.
    const owned = accessDecision(null, null)
    const declared = { 'kb-7': { tenants: ['acme'] } }
    expect([owned(asker('globex'), 'kb-7', declared), owned(asker('acme'), 'kb-7', declared), owned(asker('x'), 'kb-8')]).toEqual(
      [false, true, true],
    )
    expect(checkInProcessAnswer({ ranked: [], access: { 'kb-7': { tenant: ['acme'] } } })).toEqual({
      ok: false,
      problems: 'access.kb-7: expected {"tenants"?: [...], "roles"?: [...]}',
    })
  })
})
