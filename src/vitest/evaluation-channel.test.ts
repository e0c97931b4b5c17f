import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import type { Report } from '../contract/report-schema.ts'
import { openEvaluationChannel, receiveFromChannel, sweepStaleChannelFolders } from './evaluation-channel.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'
import { decodeRun, encodeRun, sharedRunJson, type SharedRun } from './shared-run.ts'

function evaluation(questions: number, comparison: (SharedRun & { ok: true })['comparison'] = null): SharedRun & { ok: true } {
  // The channel carries what the report holds; it does not look inside it.
  const report = {
    schemaVersion: 1,
    questions: Array.from({ length: questions }, (_, i) => ({ id: `q-${i}`, question: `é ${i}` })),
  } as unknown as Report
  return {
    ok: true,
    report,
    questions,
    terminalSummary: 'summary',
    reportsDir: '/r',
    projectRoot: '/p',
    baselineRoot: '/b',
    gate: false,
    strict: false,
    baselineUpdated: false,
    comparison,
  }
}

describe('the run reaches the cases over a local channel while the global setup goes on (issue 13.2)', () => {
  it('a case file that connects before the evaluation ends receives it when it ends; later ones receive the same', async () => {
    const channel = await openEvaluationChannel()
    try {
      let finish: (json: readonly Uint8Array[]) => void = () => {}
      channel.publish('evaluation', new Promise((resolve) => (finish = resolve)))
      const early = receiveFromChannel(channel.address, 'evaluation')
      const shared = evaluation(3)
      setTimeout(() => finish(encodeRun(shared)), 30)
      expect(JSON.parse(await early)).toEqual(shared)
      expect(JSON.parse(await receiveFromChannel(channel.address, 'evaluation'))).toEqual(shared)
    } finally {
      await channel.close()
    }
  })

  it('each topic has its own answer: the evaluation first, the reports once written (the cases run meanwhile)', async () => {
    const channel = await openEvaluationChannel()
    try {
      let written: (json: readonly Uint8Array[]) => void = () => {}
      channel.publish('evaluation', Promise.resolve(encodeRun(evaluation(1))))
      channel.publish('reports', new Promise((resolve) => (written = resolve)))
      const reports = receiveFromChannel(channel.address, 'reports')
      expect(JSON.parse(await receiveFromChannel(channel.address, 'evaluation'))).toEqual(evaluation(1))
      written([new TextEncoder().encode(JSON.stringify({ error: 'reports/latest.json: ENOSPC' }))])
      expect(JSON.parse(await reports)).toEqual({ error: 'reports/latest.json: ENOSPC' })
    } finally {
      await channel.close()
    }
  })

  it('a watch-mode rerun publishes its own run: connections from then on receive it', async () => {
    const channel = await openEvaluationChannel()
    try {
      channel.publish('evaluation', Promise.resolve(encodeRun(evaluation(1))))
      channel.publish('evaluation', Promise.resolve(encodeRun(evaluation(2, { ok: false, error: 'B failed' }))))
      expect(JSON.parse(await receiveFromChannel(channel.address, 'evaluation'))).toEqual(
        evaluation(2, { ok: false, error: 'B failed' }),
      )
    } finally {
      await channel.close()
    }
  })

  it('a run as its host sends it (JSON pieces) decodes to the same run', () => {
    const object = evaluation(4)
    const text = JSON.stringify(object)
    const pieces = [new TextEncoder().encode(text.slice(0, 40)), new TextEncoder().encode(text.slice(40))]
    expect(Buffer.concat(pieces).toString('utf8')).toBe(Buffer.concat(encodeRun(object)).toString('utf8'))
    expect(decodeRun(pieces)).toEqual(object)
  })

  it('a host sends the report as latest.json holds it, spliced into the run: the same run once parsed', () => {
    const { report, ...rest } = evaluation(2)
    const shard = { index: 2, count: 3 }
    const spliced = sharedRunJson({ ...rest, report: null, shard }, [new TextEncoder().encode(JSON.stringify(report, null, 2))])
    expect(decodeRun(spliced)).toEqual({ ...rest, report, shard })
    expect(decodeRun(spliced)).toMatchObject({
      ok: true,
      gate: false,
      shard,
      report: { questions: [{ id: 'q-0' }, { id: 'q-1' }] },
    })
  })

  it('a topic nothing was published for is answered by a closed connection: an error naming the channel and the topic', async () => {
    const channel = await openEvaluationChannel()
    try {
      channel.publish('evaluation', Promise.resolve(encodeRun(evaluation(1))))
      await expect(receiveFromChannel(channel.address, 'reports')).rejects.toThrow(
        `the evaluation's channel ${channel.address} closed without the run's reports: the run was stopped`,
      )
    } finally {
      await channel.close()
    }
  })

  it('a closed channel is an error naming it, and closing removes its folder', async () => {
    const channel = await openEvaluationChannel()
    await channel.close()
    if (process.platform !== 'win32') expect(existsSync(dirname(channel.address))).toBe(false)
    await expect(receiveFromChannel(channel.address, 'evaluation')).rejects.toThrow(
      `the evaluation's channel ${channel.address} could not be read`,
    )
  })
})

describe('the channel leaves no folder behind (issue 22.6)', () => {
  const temp = useTempDirs()
  const CHANNEL = fileURLToPath(new URL('./evaluation-channel.ts', import.meta.url))
  const channelFolders = (parent: string) => readdirSync(parent).filter((name) => name.startsWith('rag-vitest-eval-'))

  /** A process that opens a channel in `tmp`, says so, and waits; it ends as `end` makes it. */
  function channelOwner(tmp: string): Promise<ChildProcess> {
    const script = `import { openEvaluationChannel } from ${JSON.stringify(pathToFileURL(CHANNEL).href)}
const channel = await openEvaluationChannel()
process.stdout.write('open ' + channel.address + '\\n')
setInterval(() => {}, 1000)`
    const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      env: { ...process.env, TMPDIR: tmp },
      stdio: ['ignore', 'pipe', 'inherit'],
    })
    return new Promise((resolve, reject) => {
      child.stdout.on('data', (chunk: Buffer) => chunk.toString().includes('open ') && resolve(child))
      child.once('exit', (code) => reject(new Error(`the channel's owner exited with code ${code} before it opened`)))
    })
  }

  it.each(['SIGINT', 'SIGTERM', 'SIGKILL'] as const)(
    'a run ended by %s: its folder is gone once the next run opens its channel, which keeps its own',
    async (signal) => {
      const tmp = temp.make('rag-channel-tmp-')
      const owner = await channelOwner(tmp)
      expect(channelFolders(tmp)).toHaveLength(1)
      const ended = new Promise((resolve) => owner.once('exit', resolve))
      owner.kill(signal)
      await ended
      const next = await channelOwner(tmp)
      const left = channelFolders(tmp)
      next.kill('SIGKILL')
      // Only the next run's own folder: the ended run's is swept however it ended.
      expect(left).toEqual([expect.stringMatching(new RegExp(`^rag-vitest-eval-${next.pid}-`))])
    },
  )

  it('sweeps only the folders of processes that are gone', async () => {
    const parent = temp.make('rag-channel-sweep-')
    const gone = spawn(process.execPath, ['-e', ''])
    await new Promise((resolve) => gone.once('exit', resolve))
    for (const name of [
      `rag-vitest-eval-${gone.pid}-a`,
      `rag-vitest-eval-${process.pid}-b`,
      `rag-vitest-eval-${process.ppid}-c`,
      'other',
    ])
      mkdirSync(join(parent, name))
    expect(sweepStaleChannelFolders(parent)).toEqual([`rag-vitest-eval-${gone.pid}-a`])
    expect(readdirSync(parent).sort()).toEqual(
      [`rag-vitest-eval-${process.pid}-b`, `rag-vitest-eval-${process.ppid}-c`, 'other'].sort(),
    )
  })

  it('a channel closed normally removes its folder', async () => {
    const channel = await openEvaluationChannel()
    expect(existsSync(dirname(channel.address))).toBe(true)
    await channel.close()
    expect(existsSync(dirname(channel.address))).toBe(false)
  })
})
