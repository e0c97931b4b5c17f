// examples/in-process, installed from the packed tarball and run with a user's commands.
// The package as a user gets it: the packed tarball (packed once per run by packed-tarball.global-setup.ts)
// installed into fresh temp projects (pnpm, from the local store), then the commands a user types. Slow by
// nature (each step is a real Vitest run), so the package project runs these files beside the unit tests.
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { committed, packageFrames, ragEval, readReport, useUserProjects, vitest } from './user-projects.ts'

describe('from the packed tarball, in a fresh project', () => {
  const userProject = useUserProjects()

  it('examples/in-process: per-question cases with userContext and a follow-up question, the committed baseline reproduced by vitest -u, GATE=1 failing when the system is broken', async () => {
    const project = await userProject('examples/in-process', ['minisearch@7.2.0'])
    rmSync(join(project.dir, 'baseline'), { recursive: true, force: true })
    const accepted = await vitest(project, ['-u'])
    expect(accepted.code, accepted.output).toBe(0)
    expect(accepted.stdout).toContain('q-004 [none] How large is the 2026 bonus pool?')
    // The same inputs give the same baseline as the one committed beside the example.
    expect(readFileSync(join(project.dir, 'baseline/summary.json'), 'utf8')).toBe(committed('in-process', 'summary.json'))
    expect(readFileSync(join(project.dir, 'baseline/questions.json'), 'utf8')).toBe(committed('in-process', 'questions.json'))
    const report = readReport(join(project.dir, 'reports/latest.json'))
    // The same question, asked by a manager and by an employee: only the manager gets the bonus document.
    expect(report.questions.find((q) => q.id === 'q-003')).toMatchObject({
      userContext: { role: 'manager' },
      hit: true,
      refused: false,
    })
    expect(report.questions.find((q) => q.id === 'q-004')).toMatchObject({
      userContext: { role: 'employee' },
      refused: true,
      rankedDocIds: expect.not.arrayContaining(['finance/bonus-2026']),
    })
    // A follow-up question: the system searched with its history and answered from the vacation page.
    expect(report.questions.find((q) => q.id === 'q-011')).toMatchObject({
      history: [
        { role: 'user', content: 'How many days of paid vacation do employees get per year?' },
        { role: 'assistant', content: '25 days of paid vacation per calendar year, on top of public holidays.' },
      ],
      hit: true,
      refused: false,
    })
    expect(report.questions.find((q) => q.id === 'q-011')!.rankedDocIds[0]).toBe('handbook/vacation')
    // A second evaluation of the unchanged system passes the gate against the baseline -u wrote, read from disk: through
    // the bin, as Vitest's exit code under GATE=1 is new-project's to check (and a failing one the next run's).
    const gated = await ragEval(project, ['eval', '--quiet'], { GATE: '1' })
    expect(gated.code, gated.output).toBe(0)
    const broken = await vitest(project, [], { GATE: '1', RAG_EXAMPLE_BROKEN: '1' })
    expect(broken.code).toBe(1)
    expect(broken.stdout).toMatch(/× .*gated metrics > mrr does not regress/)
    expect(broken.stdout).toContain('gate: FAILED')
    // The failing cases' stack frames name files the package ships, at lines they have: the
    // package ships no source maps, which sent them to src/ files it does not ship.
    const frames = packageFrames(broken.output, project.dir)
    expect(frames.map((f) => f.shipped)).toContain('dist/vitest/eval-cases.js')
    for (const frame of frames) expect(frame, frame.text).toMatchObject({ exists: true, lineExists: true })
    // The retrieval tier through the bin, without Vitest: the same config, TypeScript system module and all.
    const retrieval = await ragEval(project, ['retrieval'])
    expect(retrieval.code, retrieval.output).toBe(0)
    expect(retrieval.stdout).toContain('minisearch-rbac · retrieval tier')
  })
})
