// examples/http-service, installed from the packed tarball and run with a user's commands.
// The package as a user gets it: the packed tarball (packed once per run by packed-tarball.global-setup.ts)
// installed into fresh temp projects (pnpm, from the local store), then the commands a user types. Slow by
// nature (each step is a real Vitest run), so the package project runs these files beside the unit tests.
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { committed, freePort, ragEval, readReport, useUserProjects, vitest } from './user-projects.ts'
import { CompareResultSchema } from '../src/compare/comparison-schema.ts'

describe('from the packed tarball, in a fresh project', () => {
  const userProject = useUserProjects()

  it('examples/http-service: the Python service started by the suite, per-question cases, its stages and citations checked, a 3x slower B flagged on p95 latency, GATE=1 failing when its reranker cuts documents', async () => {
    const project = await userProject('examples/http-service')
    // A port of its own: two checkouts testing at once must not meet on the example's 8765.
    const config = join(project.dir, 'rag-eval.config.ts')
    const port = String(await freePort())
    writeFileSync(config, readFileSync(config, 'utf8').replaceAll('8765', port))
    rmSync(join(project.dir, 'baseline'), { recursive: true, force: true })
    const accepted = await vitest(project, ['-u'])
    expect(accepted.code, accepted.output).toBe(0)
    expect(accepted.stdout).toMatch(/h-007 \[single\]/)
    // The same baseline as the committed one, but for the port in the system's url.
    const summary = readFileSync(join(project.dir, 'baseline/summary.json'), 'utf8')
    expect(summary.replaceAll(`127.0.0.1:${port}`, '127.0.0.1:8765')).toBe(committed('http-service', 'summary.json'))
    expect(readFileSync(join(project.dir, 'baseline/questions.json'), 'utf8')).toBe(committed('http-service', 'questions.json'))
    // The follow-up question reached the service with its history: the pets page first, the two-dogs sentence.
    expect(readReport(join(project.dir, 'reports/latest.json')).questions.find((q) => q.id === 'h-013')).toMatchObject({
      history: [
        { role: 'user', content: 'Can I bring my dog on the ferry?' },
        { role: 'assistant', content: 'Yes: dogs are welcome on the open upper deck, on a short leash.' },
      ],
      hit: true,
      answer: 'Dogs are welcome on the open upper deck, on a short leash, with at most two dogs per passenger [1].',
    })
    expect(readReport(join(project.dir, 'reports/latest.json')).questions.find((q) => q.id === 'h-013')!.rankedDocIds[0]).toBe(
      'passengers/pets',
    )
    // Its answers cite with [n]: every cited sentence of the accepted run cites a section that supports it.
    const acceptedReport = readReport(join(project.dir, 'reports/latest.json'))
    const cited = acceptedReport.questions.filter((q) => q.citationPrecision !== null)
    expect(cited.length).toBeGreaterThan(5)
    expect(cited.map((q) => [q.id, q.citationPrecision, q.citationRecall, q.fabricatedCitations])).toEqual(
      cited.map((q) => [q.id, 1, 1, []]),
    )
    // A second evaluation passes the gate against that baseline, read from disk (through the bin: Vitest's exit code
    // under GATE=1 is new-project's to check, and a failing one the cut run's below).
    const gated = await ragEval(project, ['eval', '--quiet'], { GATE: '1' })
    expect(gated.code, gated.output).toBe(0)

    // The service against itself slowed 3x: each side starts its own, --b-env reaches B's alone, and B's p95 latency is
    // flagged. A 500 ms wait per request puts B's every call (>= 1500 ms) far above A's p95 x 1.2 (the earlier runs' token
    // counts are kept, so no vocabulary load blocks A's first calls).
    const compare = ['compare', '--a', 'rag-eval.config.ts', '--b', 'rag-eval.config.ts', '--b-env', 'SLOW_FACTOR=3']
    const compared = await ragEval(project, [...compare, '--out', 'reports/slow'], { DELAY_MS: '500' })
    expect(compared.code, compared.output).toBe(0)
    const { latencyCost } = CompareResultSchema.parse(
      JSON.parse(readFileSync(join(project.dir, 'reports/slow/compare.json'), 'utf8')),
    )
    const row = (name: string) => latencyCost.find((r) => r.name === name)!
    // The service's own timing of its retrieval: 3 x 500 ms in B, 500 ms in A.
    expect(row('p95 latency ms (stage retrieve)').after).toBeGreaterThanOrEqual(1500)
    expect(row('p95 latency ms (stage retrieve)').before).toBeLessThan(1500)
    expect([row('p95 latency ms (whole call)').risen, row('p95 latency ms (stage retrieve)').risen]).toEqual([true, true])
    expect(compared.stdout).toMatch(/^p95 latency ms \(whole call\) .* B higher, beyond \+20%$/m)

    // A reranker that keeps one section, and the off-by-one citation bug; the service logs what each stage kept.
    const log = join(project.dir, 'stages.jsonl')
    const cut = await vitest(project, [], { GATE: '1', RERANK_KEEP: '1', CITE_OFF_BY_ONE: '1', RAG_LOG: log })
    expect(cut.code).toBe(1)
    expect(cut.stdout).toContain('gate: FAILED')
    const report = readReport(join(project.dir, 'reports/latest.json'))
    const logged = new Map(
      readFileSync(log, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { id: string; retrieve: string[]; rerank: string[]; context: string[] })
        .map((entry) => [entry.id, entry]),
    )
    const answerable = report.questions.filter((q) => q.type !== 'none')
    // Per-stage recall as the service's own log implies it: the hit rule over the documents each stage kept.
    const hitIn = (q: (typeof answerable)[number], docs: string[]) =>
      q.type === 'multi'
        ? q.answerDocIds.every((id) => docs.includes(id))
        : q.type === 'contradiction' && q.governingDocId !== null
          ? docs.includes(q.governingDocId)
          : q.answerDocIds.some((id) => docs.includes(id))
    for (const stage of ['retrieve', 'rerank'] as const) {
      const hits = answerable.filter((q) => hitIn(q, logged.get(q.id)![stage])).length
      expect([stage, report.summary.stages[stage]?.recall]).toEqual([stage, Number((hits / answerable.length).toFixed(4))])
      for (const q of answerable)
        expect([q.id, stage, q.stages.find((s) => s.name === stage)?.hit]).toEqual([
          q.id,
          stage,
          hitIn(q, logged.get(q.id)![stage]),
        ])
    }
    // Every answer document the reranker dropped (retrieved, then not kept) is named as cut by rerank, and no other.
    const cutByLog = answerable.flatMap((q) =>
      q.answerDocIds
        .filter((id) => logged.get(q.id)!.retrieve.includes(id) && !logged.get(q.id)!.rerank.includes(id))
        .map((id) => `${q.id} ${id}`),
    )
    expect(cutByLog.length).toBeGreaterThan(0)
    const cutByReport = answerable.flatMap((q) =>
      (q.funnel ?? []).filter((f) => f.lost === 'stage' && f.stage === 'rerank').map((f) => `${q.id} ${f.docId}`),
    )
    expect(cutByReport).toEqual(cutByLog)
    // The failing case of a question that lost a document at rerank says so, and latest.md shows the stages.
    expect(cut.stdout).toMatch(/passengers\/fares-2025 retrieved at rank \d+, cut by rerank/)
    const markdown = readFileSync(join(project.dir, 'reports/latest.md'), 'utf8')
    expect(markdown).toMatch(/\| recall @ rerank +\| 0\.8182 /)
    expect(markdown).toMatch(/- stage rerank, 1 ranked: 1\. passengers\/bicycles#0/)
    // The gate names the stage the recall drop came from.
    expect(markdown).toContain('recall: lost at rerank (recall@retrieve held at 1)')
    // Miscited answers score below 1; h-012's one-section context makes its [2] fabricated.
    const miscited = report.questions.filter((q) => q.citationPrecision !== null)
    expect(miscited.length).toBeGreaterThan(0)
    expect(miscited.filter((q) => q.citationPrecision! >= 1)).toEqual([])
    expect(report.questions.find((q) => q.id === 'h-012')!.fabricatedCitations).toEqual(['[2]'])

    // Five trials of a service that shuffles two questions' rankings at random: exactly those are flaky, as its log shows.
    const trialsLog = join(project.dir, 'trials.jsonl')
    const trials = await vitest(project, [], { EVAL_TRIALS: '5', SHUFFLE_FOR: 'h-003,h-007', RAG_LOG: trialsLog })
    expect(trials.code, trials.output).toBe(0)
    const requests = readFileSync(trialsLog, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; rerank: string[]; context: string[]; shuffled?: true })
    const trialed = readReport(join(project.dir, 'reports/latest.json'))
    const askedOf = (id: string) => requests.filter((r) => r.id === id)
    expect(trialed.questions.map((q) => [q.id, askedOf(q.id).length])).toEqual(trialed.questions.map((q) => [q.id, 5]))
    const shuffled = [...new Set(requests.filter((r) => r.shuffled).map((r) => r.id))].sort()
    expect(shuffled).toEqual(['h-003', 'h-007'])
    // Flaky: the questions whose returned ranking differed between requests (all shuffled ones, but by chance).
    const varied = trialed.questions.filter((q) => new Set(askedOf(q.id).map((r) => r.rerank.join())).size > 1).map((q) => q.id)
    expect(varied).toEqual(shuffled)
    expect(trialed.trials?.flaky.map((f) => f.id)).toEqual(varied)
    // Each trial's hit is the hit rule over the context the service logged for it; every question whose hit flipped is named.
    for (const q of trialed.questions.filter((q) => q.type !== 'none')) {
      const hits = askedOf(q.id).map((r) => hitIn(q, r.context))
      expect([q.id, q.trials!.runs.map((run) => run.hit)]).toEqual([q.id, hits])
      if (new Set(hits).size > 1) expect(trialed.trials?.flaky.find((f) => f.id === q.id)?.varied).toContain('recall')
    }
    const trialsMarkdown = readFileSync(join(project.dir, 'reports/latest.md'), 'utf8')
    expect(trialsMarkdown).toContain('## Trials (5 per question)')
    for (const flaky of trialed.trials!.flaky)
      expect(trialsMarkdown).toContain(`- ${flaky.id}: passed ${flaky.passed} of 5 trials; varied: ${flaky.varied.join(', ')}`)
  })

  it('examples/http-service/permissions: the service ignoring the tenant fails exactly the questions its log shows leaking, naming each document; -u refuses the run; filtering by tenant leaks nothing', async () => {
    const project = await userProject('examples/http-service')
    const config = join(project.dir, 'permissions/rag-eval.config.ts')
    const port = String(await freePort())
    writeFileSync(config, readFileSync(config, 'utf8').replaceAll('8766', port))
    const tenants = { RAG_EVAL_CONFIG: 'permissions/rag-eval.config.ts' }
    // Ignoring the tenant: every question sees both tenants' documents; the service's log says which it returned.
    const log = join(project.dir, 'returned.jsonl')
    const leaking = await vitest(project, ['-u'], { ...tenants, TENANT_FILTER: '0', RAG_LOG: log })
    expect(leaking.code).toBe(1)
    const golden = JSON.parse(readFileSync(join(project.dir, 'permissions/golden-set.json'), 'utf8')) as {
      questions: { id: string; userContext: { tenant: string } }[]
    }
    const askerOf = new Map(golden.questions.map((q) => [q.id, q.userContext.tenant]))
    // A document under tenants/<name>/ is <name>'s (permissions/access.json): the others' it returned, per question.
    const foreign = readFileSync(log, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { id: string; retrieve: string[]; rerank: string[]; context: string[] })
      .map(({ id, retrieve, rerank, context }) => ({
        id,
        docs: [...new Set([...retrieve, ...rerank, ...context])].filter(
          (doc) => doc.startsWith('tenants/') && doc.split('/')[1] !== askerOf.get(id),
        ),
      }))
      .filter(({ docs }) => docs.length > 0)
      .sort((a, b) => a.id.localeCompare(b.id))
    expect(foreign.length).toBeGreaterThan(0)
    expect(foreign.length).toBeLessThan(golden.questions.length)
    const failed = [...leaking.stdout.matchAll(/permission leak: (t-\d+) asked by \{[^}]*\} saw (.*)/g)].map((m) => ({
      id: m[1]!,
      docs: [...m[2]!.matchAll(/(tenants\/\S+) \(/g)].map((d) => d[1]!).sort(),
    }))
    expect(failed.sort((a, b) => a.id.localeCompare(b.id))).toEqual(foreign.map(({ id, docs }) => ({ id, docs: docs.sort() })))
    const report = readReport(join(project.dir, 'permissions/reports/latest.json'))
    expect(report.questions.filter((q) => q.leaks!.length > 0).map((q) => q.id)).toEqual(foreign.map((q) => q.id))
    expect(report.summary.leakRate).toBe(Number((foreign.length / golden.questions.length).toFixed(4)))
    // -u refused the run: the baseline is the committed one, byte for byte.
    expect(leaking.output).toContain('baseline not accepted: permission leaks on')
    for (const file of ['summary.json', 'questions.json'])
      expect(readFileSync(join(project.dir, 'permissions/baseline', file), 'utf8')).toBe(
        committed('http-service/permissions', file),
      )

    // Filtering by tenant: no leak, and the gate passes against that baseline.
    const filtered = await ragEval(project, ['eval', '--quiet'], { ...tenants, TENANT_FILTER: '1', GATE: '1' })
    expect(filtered.code, filtered.output).toBe(0)
    expect(readReport(join(project.dir, 'permissions/reports/latest.json')).summary.leakRate).toBe(0)
  })
})
