// Checks in a real browser that Vitest UI shows why a question fails: starts `vitest --ui` on the eval
// project in strict mode (EVAL_STRICT=1, so every miss fails), opens the UI in headless Chromium (Debian's
// /usr/bin/chromium, driven by playwright-core), clicks the failing question in the explorer, waits for its
// report (the error and the "Test Annotations" that carry the evidence, as text and as a multi-line image) and saves a
// screenshot under docs/.
// Everything it starts (Vitest's process group, Chromium, the temporary profile) is shut down at the end.
import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { chromium, type BrowserContext, type Page } from 'playwright-core'

const USAGE = `usage: pnpm ui:screenshot [--question q-014] [--out docs/ui-failing-question.png]
  Starts Vitest UI for the eval project with EVAL_STRICT=1, opens it in headless Chromium
  (/usr/bin/chromium, Debian's package: apt-get install chromium), selects the failing question and
  saves a screenshot of its report (error and evidence annotations).`

const CHROMIUM = '/usr/bin/chromium'
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]
const VIEWPORT = { width: 1600, height: 1000 }
// Limits that only catch a hang: on two cores shared with the whole test suite the eval run alone took minutes.
const UI_READY_MS = 600_000
const REPORT_MS = 600_000
const STEP_MS = 180_000
const SHUTDOWN_MS = 10_000
// What Vitest prints in watch mode when a run has ended, failed or passed.
const RUN_ENDED = /Watching for file changes|Waiting for file changes/
const UI_SETTLED_MS = 10_000

class StepFailure extends Error {}

const { values: args } = parseArgs({
  options: {
    question: { type: 'string', default: 'q-014' },
    out: { type: 'string', default: 'docs/ui-failing-question.png' },
    help: { type: 'boolean', short: 'h', default: false },
  },
})
if (args.help) {
  console.log(USAGE)
  process.exit(0)
}
const questionId = args.question
const outPath = resolve(args.out)
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')

let vitest: ChildProcess | null = null
let vitestExit: Promise<void> = Promise.resolve()
let vitestLog = ''
let context: BrowserContext | null = null
let profileDir: string | null = null
let reportsTemp: string | null = null

function reportsDir(): string {
  reportsTemp ??= mkdtempSync(join(tmpdir(), 'ui-screenshot-reports-'))
  return reportsTemp
}

function log(message: string): void {
  console.log(`ui:screenshot: ${message}`)
}

/** Runs one step under a deadline; a timeout or an error fails the script with the step's name. */
async function step<T>(name: string, ms: number, run: () => Promise<T>): Promise<T> {
  const started = Date.now()
  let timer: NodeJS.Timeout | undefined
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StepFailure(`timed out after ${ms / 1000}s: ${name}`)), ms)
  })
  try {
    const result = await Promise.race([run(), deadline])
    log(`${name} (${((Date.now() - started) / 1000).toFixed(1)}s)`)
    return result
  } catch (error) {
    if (error instanceof StepFailure) throw error
    throw new StepFailure(`${name} failed: ${error instanceof Error ? error.message : String(error)}`)
  } finally {
    clearTimeout(timer)
  }
}

function freePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const address = server.address()
      const port = typeof address === 'object' && address ? address.port : 0
      server.close(() => (port ? resolvePort(port) : reject(new Error('no free port'))))
    })
  })
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

/** Starts Vitest UI (watch mode, so the server stays up) in its own process group. */
function startVitest(port: number): void {
  // Its reports go to a temporary directory: taking a screenshot leaves reports/ as it was.
  const env: NodeJS.ProcessEnv = { ...process.env, EVAL_STRICT: '1', EVAL_REPORTS_DIR: reportsDir(), NO_COLOR: '1' }
  // With CI set Vitest would not watch (and the config would add the JSON reporter): not wanted here.
  delete env.CI
  delete env.FORCE_COLOR
  const argv = [
    join(root, 'node_modules/vitest/vitest.mjs'),
    '--ui',
    '--watch',
    '--project',
    'eval',
    '--open=false',
    '--api.host',
    '127.0.0.1',
    '--api.port',
    String(port),
    '--api.strictPort',
  ]
  log(`starting: EVAL_STRICT=1 node ${argv.map((a) => (a.startsWith(root) ? a.slice(root.length + 1) : a)).join(' ')}`)
  const child = spawn(process.execPath, argv, { cwd: root, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
  vitest = child
  const append = (chunk: Buffer) => {
    vitestLog = (vitestLog + chunk.toString()).slice(-20_000)
  }
  child.stdout?.on('data', append)
  child.stderr?.on('data', append)
  vitestExit = new Promise((done) => child.once('exit', () => done()))
}

/** Polls the UI until it answers 200; fails at once if Vitest exits first. */
async function waitForUi(url: string): Promise<void> {
  let exited = false
  void vitestExit.then(() => (exited = true))
  for (;;) {
    if (exited) throw new Error(`Vitest exited before the UI answered (exit code ${vitest?.exitCode ?? vitest?.signalCode})`)
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(2_000) })
      if (response.ok) return
    } catch {
      // not listening yet
    }
    await sleep(250)
  }
}

type Status = 'failed' | 'passed' | 'skipped' | 'running' | 'other'

/** The little of the DOM that explorerState uses (the project's tsconfig has no DOM lib). */
interface PageElement {
  readonly textContent: string | null
  getAttribute(name: string): string | null
  querySelector(selector: string): PageElement | null
  querySelectorAll(selector: string): ArrayLike<PageElement>
  getBoundingClientRect(): { top: number; bottom: number; height: number }
}
interface PageGlobals {
  document: PageElement
  innerHeight: number
}

/**
 * What the explorer shows: whether the run has ended, and, among the entries on screen, the question's entry
 * with its status and how many other tests are listed. The explorer is a virtual list: views it does not use
 * stay in the DOM, moved far above the top, so only entries within the window count.
 */
async function explorerState(
  page: Page,
): Promise<{ done: boolean; entry: Status | null; otherTests: number; crashed: boolean; panel: string }> {
  return page.evaluate((id) => {
    const { document, innerHeight } = globalThis as unknown as PageGlobals
    const panel = document.querySelector('[data-testid="results-panel"]')?.textContent ?? ''
    const count = (label: string) => Number(new RegExp(`${label} \\((\\d+)\\)`).exec(panel)?.[1] ?? 0)
    const onScreen = (item: PageElement) => {
      const box = item.getBoundingClientRect()
      return box.height > 0 && box.bottom > 0 && box.top < innerHeight
    }
    const items = Array.from(document.querySelectorAll('[data-testid="explorer-item"]')).filter(onScreen)
    // Vitest's terminal output tells that the run ended; an entry may keep its spinner until the page reloads.
    const done = /RUNNING \(0\)/.test(panel) && count('FAIL') + count('PASS') > 0
    const label = (item: PageElement) => item.getAttribute('aria-label') ?? ''
    const isTest = (item: PageElement) =>
      item.querySelector('[data-testid="btn-run-test"]')?.getAttribute('aria-label') === 'Run current test'
    const isEntry = (item: PageElement) => label(item).startsWith(`${id} [`)
    const status = (item: PageElement): Status => {
      const icon = (name: string) => item.querySelector(`[i-carbon\\:${name}]`) !== null
      if (icon('close') || icon('compare')) return 'failed'
      if (icon('checkmark')) return 'passed'
      if (icon('redo')) return 'skipped'
      if (icon('circle-dash')) return 'running'
      return 'other'
    }
    const entry = items.find(isEntry)
    return {
      done,
      entry: entry ? status(entry) : null,
      otherTests: items.filter((item) => isTest(item) && !isEntry(item)).length,
      crashed: items.some((item) => label(item) === 'the evaluation runs'),
      panel: panel.replace(/\s+/g, ' ').trim().slice(0, 200),
    }
  }, questionId)
}

async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const started = Date.now()
  let toldAt = started
  for (;;) {
    const value = await probe()
    if (value !== undefined) return value
    if (Date.now() > started + ms) throw new Error(`gave up after ${ms / 1000}s waiting for ${what}`)
    // A wait that lasts says so, for whoever reads a slow CI log.
    if (Date.now() - toldAt > 30_000) {
      toldAt = Date.now()
      log(`still waiting for ${what} (${Math.round((toldAt - started) / 1000)}s)`)
    }
    await sleep(150)
  }
}

async function openFailingQuestion(page: Page): Promise<void> {
  // The run ends before anything is clicked: a run that ends re-renders the explorer (and drops a search typed meanwhile).
  // Vitest's own output says when it ended; the page may have missed the last events of its live connection on a
  // busy machine (CI once waited 600 s for a run Vitest had finished), so it is reloaded until it shows the end.
  // Vitest's main process has also been seen to stop before its summary (about 1 run in 4 with the UI connected),
  // with the UI showing the ended run: that counts too, once it has held for UI_SETTLED_MS.
  let uiDoneSince: number | null = null
  await until('Vitest to end the run (its terminal output, or the UI showing it ended)', REPORT_MS, async () => {
    if (RUN_ENDED.test(vitestLog)) return true
    const uiDone = (await explorerState(page)).done
    uiDoneSince = uiDone ? (uiDoneSince ?? Date.now()) : null
    return uiDoneSince !== null && Date.now() - uiDoneSince > UI_SETTLED_MS ? true : undefined
  })
  let reloadAfter = 15_000
  let shownAt = Date.now()
  let panel = ''
  await until('the UI to show the ended run (reloaded until it does)', STEP_MS, async () => {
    const state = await explorerState(page)
    panel = state.panel
    if (state.done) return true
    if (Date.now() - shownAt > reloadAfter) {
      log(`the UI does not show the ended run after ${reloadAfter / 1000}s (results: ${panel || 'none'}): reloading it`)
      reloadAfter *= 2
      await page.reload({ waitUntil: 'load', timeout: STEP_MS })
      shownAt = Date.now()
    }
    return undefined
  }).catch((error: Error) => {
    throw new Error(`${error.message}; results panel: ${panel || 'none'}`)
  })
  // When the shared evaluation crashed, each eval file holds one failing case, "the evaluation runs": say why at once.
  if ((await explorerState(page)).crashed) {
    await page.locator('[data-testid="explorer-item"][aria-label="the evaluation runs"]').first().click()
    const error = page.getByText(/the evaluation failed|no shared evaluation/).first()
    const reason = await error.innerText({ timeout: STEP_MS }).catch(() => '(its error did not show)')
    throw new Error(
      `the eval project has no question cases, its shared evaluation crashed: ${reason.split('\n').slice(0, 3).join(' ')}`,
    )
  }
  // The explorer lists one entry per case, `<id> [<type>] <question>`: search for the id, so that only its entry is left.
  // The UI may still rebuild the tree just after the run ends and then ignore the search: type it again.
  const search = page.getByPlaceholder(/Search/)
  let last = await explorerState(page)
  let typedAt = 0
  // Doubled after each retype: on a busy machine the UI may take longer than the first wait to apply a search.
  let retypeAfter = 2_000
  const status = await until(
    `an explorer entry "${questionId} [...]" alone (is ${questionId} in the golden set? did the eval project crash?)`,
    STEP_MS,
    async () => {
      if (Date.now() - typedAt > retypeAfter) {
        if (typedAt > 0) retypeAfter *= 2
        await search.fill('')
        await search.fill(questionId)
        typedAt = Date.now()
      }
      last = await explorerState(page)
      return last.entry && last.entry !== 'running' && last.otherTests === 0 ? last.entry : undefined
    },
  ).catch((error: Error) => {
    throw new Error(`${error.message}; explorer: ${JSON.stringify(last)}`)
  })
  if (status !== 'failed')
    throw new Error(`${questionId} did not fail in strict mode (its case ${status}): there is no failing question to show`)
  await page.locator(`[data-testid="explorer-item"][aria-label^="${questionId} ["]`).first().click()
  // Its report: the error of the failed case, then its annotations (the evidence).
  await page.getByText('Test Annotations').waitFor({ state: 'visible', timeout: STEP_MS })
  await page.getByRole('note').filter({ hasText: 'top-10 ranked' }).first().waitFor({ state: 'visible', timeout: STEP_MS })
}

/** Checks that the report shows a failed case with its evidence, and returns its annotations' text. */
async function checkReport(page: Page): Promise<string[]> {
  if (!/[?&]test=/.test(page.url())) throw new Error(`the UI did not select a test (URL ${page.url()})`)
  const text = await page.locator('body').innerText()
  const error = text.split('\n').find((line) => line.startsWith('Error') && line.includes(questionId))
  if (!error) throw new Error(`the report shows no error naming ${questionId}`)
  const notes = await page.getByRole('note').allInnerTexts()
  const evidence = notes.find((note) => note.includes(questionId) && note.includes('top-10 ranked'))
  if (!evidence) throw new Error(`no annotation with the evidence of ${questionId} in the report`)
  for (const part of ['expected', 'context', 'tokens', 'top-10 ranked']) {
    if (!evidence.includes(part)) throw new Error(`the evidence annotation lacks "${part}"`)
  }
  // Its lines: the UI runs the message into one paragraph, the attached image (src/charts/evidence-image.ts) keeps them.
  const image = page.getByRole('note').filter({ hasText: 'top-10 ranked' }).first().locator('img').first()
  await image.waitFor({ state: 'visible', timeout: STEP_MS })
  const height = await image.evaluate((element) => (element as unknown as { naturalHeight: number }).naturalHeight)
  // Line i of the image at 52 + 16 i: six lines at the least (question, expected, context, a chunk, the ranking, a chunk).
  if (height < 52 + 16 * 6) throw new Error(`the evidence image is ${height} px high: fewer than 6 lines`)
  return notes
}

/** Grows the viewport when the report's annotations run below it, so the screenshot holds all of them. */
async function fitReport(page: Page): Promise<void> {
  const box = await page.getByRole('note').last().boundingBox()
  const bottom = box ? box.y + box.height : 0
  if (bottom + 24 > VIEWPORT.height) await page.setViewportSize({ width: VIEWPORT.width, height: Math.ceil(bottom + 48) })
  // Away from the explorer entry, so that no hover state or tooltip covers the report.
  await page.mouse.move(VIEWPORT.width - 10, VIEWPORT.height - 10)
}

async function shutdown(): Promise<void> {
  if (context) {
    const closing = context
    context = null
    await Promise.race([closing.close().catch(() => {}), sleep(SHUTDOWN_MS)])
  }
  const child = vitest
  if (child?.pid !== undefined) {
    vitest = null
    const group = -child.pid
    const signalGroup = (signal: NodeJS.Signals) => {
      try {
        process.kill(group, signal)
        return true
      } catch {
        return false // the group is gone
      }
    }
    if (child.exitCode === null && child.signalCode === null) signalGroup('SIGTERM')
    const exited = await Promise.race([vitestExit.then(() => true), sleep(SHUTDOWN_MS).then(() => false)])
    // Whatever is left of the group (workers, the evaluation's child process) goes too.
    if (signalGroup('SIGKILL') || !exited) log('killed what was left of the Vitest process group')
    else log('stopped Vitest (process group)')
  }
  for (const dir of [profileDir, reportsTemp]) if (dir) rmSync(dir, { recursive: true, force: true })
  profileDir = null
  reportsTemp = null
}

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM)) {
    throw new StepFailure(
      `${CHROMIUM} is missing: install Debian's Chromium with \`apt-get install chromium\` (as root), then re-run`,
    )
  }
  const port = await freePort()
  const url = `http://127.0.0.1:${port}/__vitest__/`
  startVitest(port)
  await step(`Vitest UI answers at ${url}`, UI_READY_MS, () => waitForUi(url))

  profileDir = mkdtempSync(join(tmpdir(), 'ui-screenshot-chromium-'))
  const profile = profileDir
  context = await step(`headless Chromium started (${CHROMIUM})`, STEP_MS, () =>
    chromium.launchPersistentContext(profile, {
      executablePath: CHROMIUM,
      headless: true,
      args: CHROMIUM_ARGS,
      viewport: VIEWPORT,
      deviceScaleFactor: 1,
      colorScheme: 'light',
    }),
  )
  const browser = context
  // tsx (esbuild, keepNames) wraps named functions in __name(...) calls, also inside the functions this
  // script hands to page.evaluate; the page needs that helper to run them.
  await browser.addInitScript('globalThis.__name = (fn) => fn')
  const page = browser.pages()[0] ?? (await browser.newPage())
  await step('UI loaded in Chromium', STEP_MS, () => page.goto(url, { waitUntil: 'load', timeout: STEP_MS }))
  try {
    await step(`opened ${questionId}'s report (error and Test Annotations)`, REPORT_MS + 3 * STEP_MS, () =>
      openFailingQuestion(page),
    )
  } catch (error) {
    // What the browser showed when it went wrong, for whoever debugs it (not under docs/).
    const shot = join(tmpdir(), 'ui-screenshot-failure.png')
    await page.screenshot({ path: shot, timeout: 5_000 }).then(
      () => log(`the page at the failure: ${shot}`),
      () => {},
    )
    throw error
  }
  const notes = await step('report shows the failed case with its evidence', STEP_MS, () => checkReport(page))
  await step('report fits the screenshot', STEP_MS, () => fitReport(page))
  mkdirSync(dirname(outPath), { recursive: true })
  await step(`screenshot saved`, STEP_MS, () => page.screenshot({ path: outPath, fullPage: true, animations: 'disabled' }))
  const size = page.viewportSize()
  log(
    `selected ${page.url().slice(url.length - 1)} (${notes.length} ` +
      `annotation${notes.length === 1 ? '' : 's'}: ${notes.map((n) => n.split('\n')[0]).join(', ')})`,
  )
  log(`wrote ${outPath} (${size?.width}x${size?.height}, ${statSync(outPath).size} bytes)`)
}

// Last resort, whatever ends this process (an uncaught error, a closed pipe): no Vitest or profile left behind.
process.on('exit', () => {
  if (vitest?.pid !== undefined) {
    try {
      process.kill(-vitest.pid, 'SIGKILL')
    } catch {
      // already gone
    }
  }
  for (const dir of [profileDir, reportsTemp]) if (dir) rmSync(dir, { recursive: true, force: true })
})
// A reader that goes away (`pnpm ui:screenshot | head`) must not stop the shutdown half-way.
for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {})

let interrupted = false
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    interrupted = true
    log(`${signal}: shutting down`)
    void shutdown().finally(() => process.exit(1))
  })
}

try {
  await main()
  await shutdown()
} catch (error) {
  if (!interrupted) {
    console.error(`ui:screenshot failed: ${error instanceof Error ? error.message : String(error)}`)
    if (vitestLog.trim()) console.error(`--- last Vitest output ---\n${vitestLog.trim().split('\n').slice(-40).join('\n')}`)
    await shutdown()
    process.exit(1)
  }
}
