// examples/http-service, installed from the packed tarball and run with a user's commands.
// The package as a user gets it: the packed tarball (packed once per run by packed-tarball.global-setup.ts)
// installed into fresh temp projects (pnpm, from the local store), then the commands a user types. Slow by
// nature (each step is a real Vitest run), so the package project runs these files beside the unit tests.
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { committed, freePort, readReport, useUserProjects, vitest } from './user-projects.ts'

describe('from the packed tarball, in a fresh project', () => {
  const userProject = useUserProjects()

  it('examples/http-service: the Python service started by the suite, per-question cases, GATE=1 failing when the service is broken', async () => {
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
    const gated = await vitest(project, [], { GATE: '1' })
    expect(gated.code, gated.output).toBe(0)
    const broken = await vitest(project, [], { GATE: '1', BROKEN: '1' })
    expect(broken.code).toBe(1)
    expect(broken.stdout).toContain('gate: FAILED')
  })
})
