// Checks in a real browser that the static Vitest UI of a run (EVAL_HTML=1, Vitest's html reporter: the CI artifact)
// shows the evaluation: runs the eval project in strict mode (EVAL_STRICT=1, so every miss fails) with EVAL_HTML=1 into a
// temporary reports folder (or takes an html report already written, --report), serves it on 127.0.0.1, opens it in
// headless Chromium (Debian's /usr/bin/chromium, driven by playwright-core), and checks two cases: the failing question's
// report shows its note and its multi-line evidence (an image of 5 lines or more), and the reports case shows the run's
// charts (metrics.svg first) as images that loaded. Saves a screenshot of each under docs/.
import { spawn } from 'node:child_process'
import { createReadStream, existsSync, mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { dirname, extname, join, normalize, resolve, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { chromium, type BrowserContext, type Locator, type Page } from 'playwright-core'

const USAGE = `usage: pnpm ui:html-screenshot [--report reports/html] [--question q-014] [--out docs/html-report]
  Runs the eval project with EVAL_STRICT=1 EVAL_HTML=1 (unless --report names an html report already written), serves
  the static Vitest UI, opens it in headless Chromium (/usr/bin/chromium: apt-get install chromium) and checks that the
  failing question shows its multi-line evidence and the reports case its charts; writes <out>-evidence.png and
  <out>-charts.png.`

const CHROMIUM = '/usr/bin/chromium'
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking']
const VIEWPORT = { width: 1600, height: 1000 }
const RUN_MS = 600_000
const STEP_MS = 180_000
/** The fewest lines a question's evidence has (question, expected, context, a chunk, the ranking's heading, a ranked chunk). */
const MIN_EVIDENCE_LINES = 6
/** The evidence image's geometry (src/charts/evidence-image.ts): line i at 52 + 16 i, the image 52 + 16 n high. */
const EVIDENCE_HEIGHT = (lines: number) => 52 + 16 * lines

const { values: args } = parseArgs({
  options: {
    report: { type: 'string' },
    question: { type: 'string', default: 'q-014' },
    out: { type: 'string', default: 'docs/html-report' },
    help: { type: 'boolean', short: 'h', default: false },
  },
})
if (args.help) {
  console.log(USAGE)
  process.exit(0)
}
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const questionId = args.question
const log = (message: string) => console.log(`ui:html-screenshot: ${message}`)
/** Every temporary folder made (the reports of the run, Chromium's profile), removed at the end. */
const temps: string[] = []
let server: Server | null = null
let context: BrowserContext | null = null

/** Runs the eval project (strict, html reporter) into a temporary reports folder; returns its html folder. */
function runEvalProject(): Promise<string> {
  const temp = mkdtempSync(join(tmpdir(), 'html-report-screenshot-'))
  temps.push(temp)
  const env: NodeJS.ProcessEnv = { ...process.env, EVAL_STRICT: '1', EVAL_HTML: '1', EVAL_REPORTS_DIR: temp, NO_COLOR: '1' }
  delete env.CI
  delete env.GATE
  log(`running: EVAL_STRICT=1 EVAL_HTML=1 vitest run --project eval (reports into ${temp})`)
  const child = spawn(process.execPath, [join(root, 'node_modules/vitest/vitest.mjs'), 'run', '--project', 'eval'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let output = ''
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-8_000))
  child.stdout.on('data', keep)
  child.stderr.on('data', keep)
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      fail(new Error(`the eval project did not finish in ${RUN_MS / 1000}s`))
    }, RUN_MS)
    child.once('exit', (code) => {
      clearTimeout(timer)
      const html = join(temp, 'html')
      // Strict mode fails the run on every miss (exit 1): the report is written all the same.
      if (existsSync(join(html, 'index.html'))) done(html)
      else
        fail(
          new Error(
            `the eval project (exit code ${code}) wrote no html report:\n${output.trim().split('\n').slice(-20).join('\n')}`,
          ),
        )
    })
  })
}

const TYPES: Record<string, string> = {
  '.html': 'text/html',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.gz': 'application/gzip',
}

/** Serves `dir` read-only on 127.0.0.1 (the html report fetches its data, so file:// does not do); returns its url. */
function serve(dir: string): Promise<string> {
  const base = resolve(dir)
  server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://localhost').pathname)
    const file = normalize(join(base, path.endsWith('/') ? `${path}index.html` : path))
    if (!file.startsWith(base + sep) || !existsSync(file) || !statSync(file).isFile()) {
      response.writeHead(404).end()
      return
    }
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' })
    createReadStream(file).pipe(response)
  })
  return new Promise((done) =>
    server!.listen(0, '127.0.0.1', () => done(`http://127.0.0.1:${(server!.address() as { port: number }).port}/`)),
  )
}

/** Selects the case whose explorer entry's label starts with `label` (searching for `search`) and waits for its report. */
async function openCase(page: Page, search: string, label: string): Promise<void> {
  const entry = page.locator(`[data-testid="explorer-item"][aria-label^="${label}"]`).first()
  const box = page.getByPlaceholder(/Search/)
  const deadline = Date.now() + STEP_MS
  // The explorer may rebuild its tree once the data is in and drop a search typed before: type it again until the entry shows.
  while (!(await entry.isVisible())) {
    if (Date.now() > deadline) throw new Error(`no explorer entry "${label}…" after searching for "${search}"`)
    await box.fill('')
    await box.fill(search)
    await entry.waitFor({ state: 'visible', timeout: 2_000 }).catch(() => {})
  }
  await entry.click()
  await page.getByText('Test Annotations').waitFor({ state: 'visible', timeout: STEP_MS })
}

/** The natural size of an image once it has loaded (0 x 0: it did not). */
async function loadedImage(image: Locator): Promise<{ width: number; height: number }> {
  await image.waitFor({ state: 'visible', timeout: STEP_MS })
  return image.evaluate(async (element) => {
    const img = element as unknown as { decode(): Promise<void>; naturalWidth: number; naturalHeight: number }
    await img.decode().catch(() => {})
    return { width: img.naturalWidth, height: img.naturalHeight }
  })
}

async function checkEvidence(page: Page): Promise<void> {
  await openCase(page, questionId, `${questionId} [`)
  const note = page.getByRole('note').filter({ hasText: 'top-10 ranked' }).first()
  await note.waitFor({ state: 'visible', timeout: STEP_MS })
  const text = await note.innerText()
  for (const part of [questionId, 'known miss', 'expected', 'context', 'tokens', 'top-10 ranked'])
    if (!text.includes(part)) throw new Error(`the evidence annotation lacks "${part}"`)
  const image = await loadedImage(note.locator('img').first())
  if (image.height < EVIDENCE_HEIGHT(MIN_EVIDENCE_LINES))
    throw new Error(`the evidence image is ${image.width}x${image.height}: fewer than ${MIN_EVIDENCE_LINES} lines`)
  log(`${questionId}: evidence annotation with an image of ${(image.height - 52) / 16} lines (${image.width}x${image.height})`)
}

async function checkCharts(page: Page): Promise<void> {
  await openCase(page, 'reports are written', 'the run’s reports are written')
  const notes = page.getByRole('note')
  for (const file of ['metrics.svg', 'diagnosis.svg', 'latency.svg']) {
    const note = notes.filter({ hasText: `charts/${file}` }).first()
    const image = await loadedImage(note.locator('img').first())
    if (image.width === 0 || image.height === 0) throw new Error(`the chart ${file} did not load in the report`)
    log(`chart ${file} shown (${image.width}x${image.height})`)
  }
}

async function screenshot(page: Page, path: string): Promise<void> {
  const last = await page.getByRole('note').last().boundingBox()
  const bottom = last ? last.y + last.height : 0
  if (bottom + 24 > VIEWPORT.height) await page.setViewportSize({ width: VIEWPORT.width, height: Math.ceil(bottom + 48) })
  await page.mouse.move(VIEWPORT.width - 10, 10)
  mkdirSync(dirname(path), { recursive: true })
  await page.screenshot({ path, fullPage: true, animations: 'disabled' })
  await page.setViewportSize(VIEWPORT)
  log(`wrote ${path} (${statSync(path).size} bytes)`)
}

async function main(): Promise<void> {
  if (!existsSync(CHROMIUM))
    throw new Error(`${CHROMIUM} is missing: install Debian's Chromium with \`apt-get install chromium\` (as root), then re-run`)
  const html = args.report ? resolve(args.report) : await runEvalProject()
  if (!existsSync(join(html, 'index.html'))) throw new Error(`${html} holds no index.html: not an html report (EVAL_HTML=1)`)
  const url = await serve(html)
  log(`serving ${html} at ${url}`)
  const profile = mkdtempSync(join(tmpdir(), 'html-report-chromium-'))
  temps.push(profile)
  context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: VIEWPORT,
    deviceScaleFactor: 1,
    colorScheme: 'light',
  })
  // tsx (esbuild, keepNames) may wrap functions handed to page.evaluate in __name(...): the page needs the helper.
  await context.addInitScript('globalThis.__name = (fn) => fn')
  const page = context.pages()[0] ?? (await context.newPage())
  await page.goto(url, { waitUntil: 'load', timeout: STEP_MS })
  const out = resolve(args.out)
  await checkEvidence(page)
  await screenshot(page, `${out}-evidence.png`)
  await checkCharts(page)
  await screenshot(page, `${out}-charts.png`)
}

async function shutdown(): Promise<void> {
  await context?.close().catch(() => {})
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()))
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true })
}

try {
  await main()
  await shutdown()
} catch (error) {
  console.error(`ui:html-screenshot failed: ${error instanceof Error ? error.message : String(error)}`)
  await shutdown()
  process.exit(1)
}
