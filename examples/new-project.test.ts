// A new project from the packed tarball: what the tarball ships, and `rag-eval init` to a gated run.
// The package as a user gets it: the packed tarball (packed once per run by packed-tarball.global-setup.ts)
// installed into fresh temp projects (pnpm, from the local store), then the commands a user types. Slow by
// nature (each step is a real Vitest run), so the package project runs these files beside the unit tests.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { packedTarball, ragEval, readReport, useUserProjects, vitest } from './user-projects.ts'

describe('from the packed tarball, in a fresh project', () => {
  const userProject = useUserProjects()
  let tarball = ''
  beforeAll(async () => {
    tarball = await packedTarball()
  })

  it('the tarball ships dist/ without source maps (src/ is not shipped: a map would send frames to files a user does not have)', () => {
    const entries = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n')
    expect(entries).toContain('package/dist/vitest/eval-cases.js')
    expect(entries.filter((entry) => entry.endsWith('.map') || entry.startsWith('package/src/'))).toEqual([])
    const cases = execFileSync('tar', ['-xzOf', tarball, 'package/dist/vitest/eval-cases.js'], { encoding: 'utf8' })
    expect(cases).toContain('export function defineQuestionCases(')
    expect(cases).not.toContain('sourceMappingURL')
  })

  it("the tarball ships no test helper and no benchmark (src/testing/, a folder's testing/, scripts/bench/ are the repository's)", () => {
    const entries = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).trim().split('\n')
    expect(entries).toContain('package/dist/model-server/messages-server.js')
    expect(entries.filter((entry) => /\/(testing|bench)\//.test(entry) || entry.startsWith('package/scripts/'))).toEqual([])
  })

  it('rag-eval init, then vitest run passes, vitest run -u writes the baseline, GATE=1 passes against it', async () => {
    const project = await userProject()
    const init = await ragEval(project, ['init'])
    expect(init.code, init.output).toBe(0)
    expect(init.stdout).toContain('created rag-eval.config.ts')
    // The evaluation's host runs from the bundle `pnpm build` made (src/threads/thread-bundle.ts).
    expect(existsSync(join(project.dir, 'node_modules/rag-vitest-eval/dist/threads/evaluation-host-main.mjs'))).toBe(true)
    const first = await vitest(project, [])
    expect(first.code, first.output).toBe(0)
    // One case per golden question, named `<id> [<type>] <question>`.
    expect(first.stdout).toContain('q-003 [none] What is the office parking policy?')
    // Without a baseline the hint names what this project can run, not a script of this repository.
    expect(first.stdout).toContain(
      'gate: no baseline; create it with `npx vitest run --project eval -u` under the same EVAL_MODE',
    )
    expect(first.output).not.toMatch(/pnpm (baseline:update|eval|golden:|model:server)/)
    const report = readReport(join(project.dir, 'evals/reports/latest.json'))
    expect(report.summary).toMatchObject({ questions: 3, recall: 1, refusalRate: 1 })
    expect(report.config.system).toBe('starter-keyword-system')
    const accepted = await vitest(project, ['-u'])
    expect(accepted.code, accepted.output).toBe(0)
    const gated = await vitest(project, [], { GATE: '1' })
    expect(gated.code, gated.output).toBe(0)
    expect(gated.stdout).toContain('gate: passed, no regression beyond the tolerance 0.01 against evals/baseline/')
  })
})
