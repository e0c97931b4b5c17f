import { spawnSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { ragEvalArgv } from '../testing/rag-eval-bin.ts'
import { ragEvalInProcess } from '../cli/testing/rag-eval-in-process.ts'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const SHARED = fileURLToPath(new URL('../../../shared/trec/', import.meta.url))

/** Runs `rag-eval trec` in-process, its exit code as `status`. */
async function trec(args: readonly string[]): Promise<{ status: number; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await ragEvalInProcess(['trec', ...args])
  return { status: code, stdout, stderr }
}

/** The same as `pnpm trec` runs it (from the sources as they are), without pnpm's banner. */
function spawnTrec(args: readonly string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, ragEvalArgv(['trec', ...args]), {
    cwd: ROOT,
    encoding: 'utf8',
  })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

const temps = useTempDirs()

function temp(files: Record<string, string>): string {
  const dir = temps.make('trec-cli-')
  for (const [name, content] of Object.entries(files)) writeFileSync(join(dir, name), content)
  return dir
}

describe('pnpm trec CLI', () => {
  it('default measures (recip_rank, recall.5,10, ndcg_cut.10) with per-query lines reproduce the expected file', () => {
    const result = spawnTrec([join(SHARED, 'qrels.test'), join(SHARED, 'results.test')])
    expect(result.stderr).toBe('')
    expect(result.status).toBe(0)
    expect(result.stdout).toBe(readFileSync(join(SHARED, 'expected.rr_ndcg10_recall.txt'), 'utf8'))
  })

  it('accepts repeated -m, --measures lists and --no-q', async () => {
    const expected = readFileSync(join(SHARED, 'edge/out.edge.hp10.txt'), 'utf8')
    const files = [join(SHARED, 'edge/qrels.edge'), join(SHARED, 'edge/run.edge')]
    const repeated = await trec(['-m', 'num_q', '-m', 'recip_rank', '-m', 'recall.1,10', '-m', 'ndcg_cut.1,3,10', '-q', ...files])
    expect(repeated.stdout).toBe(expected)
    const listed = await trec(['--measures', 'ndcg_cut.1,3,10,recip_rank,recall.1,10,num_q', ...files])
    expect(listed.stdout).toBe(expected)
    const summary = await trec(['--no-q', '--measures', 'num_q,recip_rank,recall.1,10,ndcg_cut.1,3,10', ...files])
    expect(summary.stdout).toBe(
      expected
        .split('\n')
        .filter((line) => line.includes('\tall\t'))
        .map((line) => `${line}\n`)
        .join(''),
    )
  })

  it('exits 4 naming a qrels query missing from the run; -c counts it as 0', async () => {
    const dir = temp({ qrels: 'q1 0 d1 1\nq2 0 d2 1\n', run: 'q1 Q0 d1 1 1.0 r\n' })
    const failed = await trec(['-m', 'recip_rank', join(dir, 'qrels'), join(dir, 'run')])
    expect(failed.status).toBe(4)
    expect(failed.stdout).toBe('')
    expect(failed.stderr).toMatch(/^trec: qrels query "q2" has no results in the run/)
    expect(failed.stderr).not.toMatch(/\n\s+at /)

    const complete = await trec(['-c', '-m', 'recip_rank', join(dir, 'qrels'), join(dir, 'run')])
    expect(complete.status).toBe(0)
    expect(complete.stdout).toBe(
      'recip_rank            \tq1\t1.0000000000\nrecip_rank            \tq2\t0.0000000000\nrecip_rank            \tall\t0.5000000000\n',
    )
  })

  it('reports input errors as "trec: <file>:<line>: ..." without a stack trace', async () => {
    const dir = temp({ qrels: 'q1 0 d1 1\n', run: 'q1 Q0 d1 1 1.0 r\nq1 Q0 d1 2 0.5 r\n' })
    const result = await trec([join(dir, 'qrels'), join(dir, 'run')])
    expect(result.status).toBe(1)
    expect(result.stderr).toBe(
      `trec: ${join(dir, 'run')}:2: duplicate docno "d1" for query "q1" (trec_eval rejects a document retrieved twice for one query)\n`,
    )
  })

  it('rejects unknown measures and bad usage', async () => {
    const files = [join(SHARED, 'qrels.test'), join(SHARED, 'results.test')]
    const unknown = await trec(['-m', 'map', ...files])
    expect(unknown.status).toBe(1)
    expect(unknown.stderr).toMatch(/^trec: unknown measure "map"/)
    const option = await trec(['--bogus', ...files])
    expect(option.status).toBe(2)
    expect(option.stderr).toMatch(/^trec: unknown option --bogus\nusage: rag-eval trec /)
    const missing = await trec([files[0]!])
    expect(missing.status).toBe(2)
    expect(missing.stderr).toMatch(/^trec: missing <run> \(expected a file\)\nusage: rag-eval trec /)
  })
})
