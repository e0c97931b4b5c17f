import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { loadProjectConfig } from '../config/load-project-config.ts'
import type { ProjectConfig } from '../config/project-config.ts'
import { evaluate } from '../run/evaluate.ts'
import { ModelCallError } from './model-errors.ts'
import { partialRecordingDir, previousRecordingDir, RecordingReader } from './recording.ts'
import { comparable, filesUnder } from './testing/eval-child.ts'
import { parseFaultSpec, withFaults } from '../model-server/fault-injection.ts'
import { scriptedReply } from '../model-server/scripted-responder.ts'
import { TEST_API_KEY } from './testing/test-client.ts'
import { useScriptedServer } from './testing/use-scripted-server.ts'
import { useTempDirs } from '../testing/use-temp-dirs.ts'

const local = useScriptedServer()
const temp = useTempDirs()
const repository = await loadProjectConfig()

/** The three-question set over the three-document corpus, with cache and recordings in folders removed after the test. */
function tinyProject(): ProjectConfig {
  return {
    ...repository,
    corpus: { dir: 'fixtures/corpora/tiny', include: repository.corpus!.include, exclude: repository.corpus!.exclude },
    goldenSet: 'fixtures/golden/valid.json',
    cacheDir: temp.make('recording-cache-'),
    recordingsDir: temp.make('recordings-'),
  }
}

/** Every file of a folder with its bytes, by relative path. */
function snapshot(dir: string): Record<string, string> {
  return Object.fromEntries(filesUnder(dir).map((file) => [relative(dir, file), readFileSync(file).toString('base64')]))
}

const HOW = 'record it'

describe('a record run writes beside the recording and swaps it in only when complete', () => {
  const env = (url: string, extra: Record<string, string> = {}) => ({
    EVAL_MODE: 'record',
    EVAL_RECORDING: 'tiny',
    ANTHROPIC_API_KEY: TEST_API_KEY,
    ANTHROPIC_BASE_URL: url,
    ...extra,
  })

  it('a record run that fails midway leaves the previous complete recording byte-identical, and replay still works', async () => {
    const project = tinyProject()
    const recorded = await evaluate(project, { tier: 'full', baselineRoot: null, env: env(local.server.url) })
    const dir = join(project.recordingsDir, 'tiny')
    const before = snapshot(dir)
    expect(Object.keys(before).sort()).toEqual([
      'exchanges/g-1.json',
      'exchanges/g-2.json',
      'exchanges/g-3.json',
      'metadata.json',
    ])

    // The second record run: no cache (every call goes to the server), and from the fifth request on the server fails.
    local.server.resetStats()
    local.server.setResponder(withFaults(scriptedReply, parseFaultSpec('500:after=4')))
    const failed = evaluate(project, { tier: 'full', env: env(local.server.url, { EVAL_CACHE: 'off', EVAL_MAX_RETRIES: '0' }) })
    // The fifth request to arrive is a generator's call (the system's failure, caused by the model's) or a judge's,
    // whichever the server received first.
    const error: unknown = await failed.then(
      () => 'resolved',
      (e: unknown) => e,
    )
    expect(error instanceof ModelCallError ? error : (error as Error).cause).toBeInstanceOf(ModelCallError)
    expect(local.server.requests.length).toBeGreaterThan(4)

    expect(snapshot(dir)).toEqual(before)
    // What it did record is in the partial folder, marked incomplete; replay never reads it.
    const partial = partialRecordingDir(dir)
    expect(JSON.parse(readFileSync(join(partial, 'metadata.json'), 'utf8'))).toMatchObject({
      complete: false,
      note: 'record run under way',
    })
    const replayed = await evaluate(project, {
      tier: 'full',
      baselineRoot: null,
      env: { EVAL_MODE: 'replay', EVAL_RECORDING: 'tiny' },
    })
    expect(comparable(replayed)).toEqual(comparable(recorded))
  })

  it('a complete record run replaces the recording and leaves no partial or previous folder; a leftover partial is started afresh', async () => {
    const project = tinyProject()
    const dir = join(project.recordingsDir, 'tiny')
    // What a killed record run left behind: a partial folder with a stray exchange file.
    mkdirSync(join(partialRecordingDir(dir), 'exchanges'), { recursive: true })
    writeFileSync(join(partialRecordingDir(dir), 'exchanges', 'q-999.json'), '{"stray": true}\n')
    await evaluate(project, { tier: 'full', baselineRoot: null, env: env(local.server.url) })
    expect(Object.keys(snapshot(dir)).sort()).toEqual([
      'exchanges/g-1.json',
      'exchanges/g-2.json',
      'exchanges/g-3.json',
      'metadata.json',
    ])
    expect(existsSync(partialRecordingDir(dir))).toBe(false)
    expect(existsSync(previousRecordingDir(dir))).toBe(false)
    expect(RecordingReader.load(dir, HOW).metadata).toMatchObject({ complete: true, exchanges: expect.any(Number) })
  })

  it('replay reads the previous recording when a run died between the two renames of the swap', async () => {
    const project = tinyProject()
    await evaluate(project, { tier: 'full', baselineRoot: null, env: env(local.server.url) })
    const dir = join(project.recordingsDir, 'tiny')
    renameSync(dir, previousRecordingDir(dir))
    const reader = RecordingReader.load(dir, HOW)
    expect(reader.dir).toBe(previousRecordingDir(dir))
    expect(reader.metadata.complete).toBe(true)
    expect(() => RecordingReader.load(join(project.recordingsDir, 'other'), HOW)).toThrow(
      `replay: no recording at ${join(project.recordingsDir, 'other')} (metadata.json missing); record it`,
    )
  })
})
