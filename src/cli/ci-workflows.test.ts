import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { JOB_SUMMARY_MARKER } from '../report/render-job-summary.ts'

// The two CI tiers of docs/judging.md: the workflows install exactly as the README says, on Node 20, and
// the judge tier runs live, gated, capped, batched at night, with the key from the secrets.

interface Step {
  name?: string
  uses?: string
  run?: string
  if?: string
  with?: Record<string, unknown>
  env?: Record<string, string>
}
interface Workflow {
  on: Record<string, unknown>
  jobs: Record<string, { env?: Record<string, string>; permissions?: Record<string, string>; steps: Step[] }>
}

const readme = readFileSync('README.md', 'utf8')
const install = /^ {4}(npm i -g pnpm@[\d.]+ && pnpm install --frozen-lockfile)/m.exec(readme)?.[1]
const workflow = (name: string) => parse(readFileSync(`.github/workflows/${name}`, 'utf8')) as Workflow
const steps = (w: Workflow) => Object.values(w.jobs).flatMap((job) => job.steps)

describe('CI workflows', () => {
  it.each(['per-commit.yml', 'judge.yml'])('%s installs exactly as the README does, on Node 20, and uploads reports/', (name) => {
    expect(install).toBe('npm i -g pnpm@12.4.2 && pnpm install --frozen-lockfile')
    const all = steps(workflow(name))
    expect(all.filter((s) => s.run === install)).toHaveLength(1)
    expect(all.find((s) => s.uses?.startsWith('actions/setup-node@'))?.with).toEqual({ 'node-version': 20 })
    expect(all.find((s) => s.uses?.startsWith('actions/upload-artifact@'))).toMatchObject({
      if: 'always()',
      with: { path: 'reports/' },
    })
  })

  it("per-commit runs .ci/run's checks (typecheck, format, lint, tests) in its order on every push and pull request, without a key", () => {
    const w = workflow('per-commit.yml')
    expect(Object.keys(w.on).sort()).toEqual(['pull_request', 'push'])
    // .ci/run's commands without arguments, run directly or as a named step beside the tests; its browser checks
    // (pnpm ui:... --out) need Chromium and stay there.
    const ciRun = [...readFileSync('.ci/run', 'utf8').matchAll(/^\s*(?:run_step [\w-]+ )?(pnpm [\w:-]+)$/gm)].map((m) => m[1])
    expect(ciRun).toEqual(['pnpm typecheck', 'pnpm format:check', 'pnpm lint', 'pnpm test'])
    const runs = steps(w).flatMap((s) => (s.run !== undefined && ciRun.includes(s.run) ? [s.run] : []))
    expect(runs).toEqual(ciRun)
    expect(readFileSync('.github/workflows/per-commit.yml', 'utf8')).not.toContain('ANTHROPIC_API_KEY')
  })

  it("per-commit posts the run's summary.md as one pull-request comment, found again by the summary's marker, not for forks", () => {
    const w = workflow('per-commit.yml')
    expect(w.jobs.test!.permissions).toEqual({ contents: 'read', 'pull-requests': 'write' })
    const post = steps(w).find((s) => s.name === 'Post the verdict on the pull request')!
    expect(post.if).toContain(
      "github.event.pull_request.head.repo.full_name == github.repository && hashFiles('reports/summary.md') != ''",
    )
    expect(post.env).toEqual({ GH_TOKEN: '${{ github.token }}', PR: '${{ github.event.pull_request.number }}' })
    // Edits the comment whose body starts with the summary's first line (the marker), or posts one.
    expect(post.run).toContain('marker=$(head -n 1 reports/summary.md)')
    expect(post.run).toContain('select(.body | startswith(\\"$marker\\"))')
    expect(post.run).toContain('gh api -X PATCH "repos/$GITHUB_REPOSITORY/issues/comments/$id" -F body=@reports/summary.md')
    expect(post.run).toContain('gh api "repos/$GITHUB_REPOSITORY/issues/$PR/comments" -F body=@reports/summary.md')
    expect(JOB_SUMMARY_MARKER).toMatch(/^<!-- .+ -->$/)
  })

  it('judge runs live on pull requests and nightly, gated, capped, in batches at night, with the key from the secrets', () => {
    const w = workflow('judge.yml')
    expect(w.on).toHaveProperty('pull_request')
    expect(w.on).toHaveProperty('schedule')
    const env = w.jobs.judge!.env!
    expect(env).toMatchObject({ ANTHROPIC_API_KEY: '${{ secrets.ANTHROPIC_API_KEY }}', EVAL_MODE: 'live', GATE: '1' })
    expect(env.EVAL_MAX_USD).toMatch(/^\$\{\{ github\.event_name == 'schedule' && '\d+' \|\| '\d+' \}\}$/)
    expect(env.EVAL_BATCH).toBe("${{ github.event_name == 'schedule' && '1' || '0' }}")
    expect(steps(w).map((s) => s.run)).toContain('pnpm eval:cli')
    // The response cache is saved even when the run fails (the cap, a regression): the rerun resumes from it.
    expect(steps(w).find((s) => s.uses?.startsWith('actions/cache/save@'))).toMatchObject({
      if: 'always()',
      with: { path: '.cache/model' },
    })
  })
})

describe('judge-sharded.yml (docs/scaling.md)', () => {
  const w = workflow('judge-sharded.yml') as Workflow & {
    jobs: Record<string, { strategy?: { matrix: { shard: number[] } }; needs?: string; if?: string }>
  }
  const shard = w.jobs.shard!
  const merge = w.jobs.merge!

  it('a matrix of shards, each the eval project with --shard=i/n and the blob reporter, live, with the key from the secrets', () => {
    expect(shard.strategy?.matrix.shard).toEqual([1, 2, 3, 4])
    expect(shard.env).toMatchObject({ ANTHROPIC_API_KEY: '${{ secrets.ANTHROPIC_API_KEY }}', EVAL_MODE: 'live' })
    // Shards never gate: GATE is the merge's.
    expect(shard.env).not.toHaveProperty('GATE')
    expect(shard.steps.map((s) => s.run)).toContain(
      'pnpm exec vitest run --project eval --shard=${{ matrix.shard }}/${{ strategy.job-total }} --reporter=blob',
    )
    const upload = shard.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))
    expect(upload).toMatchObject({
      if: 'always()',
      with: { name: 'shard-${{ matrix.shard }}', path: '.vitest-reports/\nreports/shards/\n', 'include-hidden-files': true },
    })
    expect(shard.steps.find((s) => s.uses?.startsWith('actions/cache/save@'))).toMatchObject({
      if: 'always()',
      with: { path: '.cache/model' },
    })
  })

  it('then one merge job: every shard downloaded, vitest --merge-reports under GATE=1, reports/ uploaded', () => {
    expect(merge.needs).toBe('shard')
    expect(merge.if).toBe('${{ !cancelled() }}')
    expect(merge.env).toMatchObject({ GATE: '1' })
    expect(merge.steps.find((s) => s.uses?.startsWith('actions/download-artifact@'))?.with).toEqual({
      pattern: 'shard-*',
      'merge-multiple': true,
    })
    expect(merge.steps.map((s) => s.run)).toContain('pnpm exec vitest --merge-reports')
    expect(merge.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))).toMatchObject({
      if: 'always()',
      with: { path: 'reports/' },
    })
    for (const job of [shard, merge]) {
      expect(job.steps.filter((s) => s.run === install)).toHaveLength(1)
      expect(job.steps.find((s) => s.uses?.startsWith('actions/setup-node@'))?.with).toEqual({ 'node-version': 20 })
    }
  })

  it('the merge also writes the static Vitest UI of the run (EVAL_HTML=1, reports/html/) and uploads it as an artifact of its own', () => {
    expect(merge.env).toMatchObject({ EVAL_HTML: '1' })
    const uploads = merge.steps.filter((s) => s.uses?.startsWith('actions/upload-artifact@'))
    expect(uploads.map((s) => s.with?.path)).toEqual(['reports/', 'reports/html/'])
    expect(uploads[1]).toMatchObject({ if: 'always()', with: { name: 'vitest-ui-judge-sharded-${{ github.run_id }}' } })
    // EVAL_HTML=1 is what adds the html reporter, writing under the reports folder.
    const config = readFileSync('vitest.config.ts', 'utf8')
    expect(config).toContain('process.env.EVAL_HTML')
    expect(config).toContain("join(process.env.EVAL_REPORTS_DIR ?? 'reports', 'html/index.html')")
  })
})
