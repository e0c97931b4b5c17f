import { isAbsolute, relative, resolve } from 'node:path'
import { z } from 'zod'
import { InputError } from '../contract/input-error.ts'
import { CorpusSpecSchema, type CorpusSpec } from '../load/corpus-spec.ts'
import { isRagSystem, type RagSystem, type RagSystemFactory } from '../system/rag-system.ts'
import { EvalKnobsSchema, type EvalConfig } from '../contract/eval-config-schema.ts'
import { resolveEvalConfig } from './eval-config.ts'
import { HttpHeadersSchema } from './http-headers.ts'
import type { AccessRule } from '../contract/access-schema.ts'

/** A service the suite starts before the run and stops after it (like Playwright's webServer). */
export const HttpSystemSpecSchema = z
  .object({
    http: z
      .object({
        url: z.url({ error: 'expected the URL the suite POSTs each question to, e.g. http://127.0.0.1:8000/rag' }),
        headers: HttpHeadersSchema,
        command: z
          .string()
          .min(1)
          .optional()
          .describe('Starts the service, e.g. "python3 service.py"; omitted: the service is already running'),
        readyUrl: z.url().optional().describe("Polled until it answers; default: the url's origin"),
        timeoutMs: z.number().int().positive().optional().describe('How long to wait for the service to answer (default 30000)'),
        cwd: z.string().optional().describe('Folder the command runs in, relative to the config file (default: its folder)'),
        env: z.record(z.string(), z.string()).optional().describe('Extra environment for the command'),
        reuseExisting: z.boolean().optional().describe('Use a service already answering at the url instead of failing'),
      })
      .strict()
      .superRefine((http, context) => {
        // Only headers resolve `${env:NAME}`: anywhere else it would be used as written.
        const fields = [
          ...(['url', 'readyUrl', 'command', 'cwd'] as const).map((key) => [[key], http[key]] as const),
          ...Object.entries(http.env ?? {}).map(([name, value]) => [['env', name], value] as const),
        ]
        for (const [path, value] of fields)
          if (value?.includes('${env:'))
            context.addIssue({
              code: 'custom',
              path: [...path],
              message:
                "holds ${env:NAME}, which only headers resolve: it would be used as written; send a key in a header (headers: { Authorization: 'Bearer ${env:NAME}' }); a started service inherits the run's environment",
            })
      }),
  })
  .strict()

/** The system under test: 'builtin', a module path (default export: RagSystem or factory), a RagSystem inline, or HTTP. */
export const SystemSpecSchema = z.union(
  [
    z.literal('builtin'),
    z.string().min(1).describe('a module path (relative to the config file) whose default export is a RagSystem or a factory'),
    HttpSystemSpecSchema,
    z.custom<RagSystem>(isRagSystem),
    z.custom<RagSystemFactory>((value) => typeof value === 'function'),
  ],
  {
    // An object with `http` is meant as a service: its own first problem (http.headers.Authorization: expected a string).
    error: (issue) => {
      const meant = typeof issue.input === 'object' && issue.input !== null && 'http' in issue.input
      const http = meant ? HttpSystemSpecSchema.safeParse(issue.input).error?.issues[0] : undefined
      return http
        ? `${http.path.join('.')}: ${http.message}`
        : "expected 'builtin', a module path, { http: { url } }, or an object with an answer(question) method (or a factory returning one)"
    },
  },
)
export type SystemSpec = z.output<typeof SystemSpecSchema>

/** Where things are and what is evaluated: the project's part of rag-eval.config.ts (the knobs are the rest). */
export const ProjectFieldsSchema = z
  .object({
    corpus: CorpusSpecSchema.nullable()
      .prefault('corpus')
      .describe('Documents: a folder, { dir, include, exclude }, or null when the system owns them (a vector store)'),
    goldenSet: z.string().min(1).default('evals/golden-set.json'),
    baseline: z.string().min(1).default('baseline').describe('Root folder of the accepted baselines (one per mode)'),
    reports: z.string().min(1).default('reports'),
    humanLabels: z
      .string()
      .min(1)
      .default('evals/human-labels.json')
      .describe("People's labels the judge is calibrated against (absent file: uncalibrated)"),
    prices: z
      .string()
      .min(1)
      .nullable()
      .default(null)
      .describe("Model price table (USD per million tokens); null: the package's own"),
    attackSet: z
      .string()
      .min(1)
      .default('evals/attack-set.json')
      .describe('Attack questions and their planted instructions (`rag-eval attacks`; absent file: no attacks)'),
    cacheDir: z.string().min(1).default('.cache/model'),
    recordingsDir: z.string().min(1).default('fixtures/recordings'),
    system: SystemSpecSchema.default('builtin'),
    access: z
      .union([z.string().min(1), z.custom<AccessRule>((value) => typeof value === 'function')], {
        error: 'expected (userContext, doc) => boolean, or the path of a JSON file of glob rules',
      })
      .nullable()
      .default(null)
      .describe(
        'Who may read what (docs/security.md): a function, or a JSON file of glob rules; front matter `access:` either way',
      ),
  })
  .strict()

/** What `defineConfig` accepts: the project fields and any knob, all optional. */
export type RagEvalConfig = z.input<typeof ProjectFieldsSchema> & Partial<z.input<typeof EvalKnobsSchema>>

/** The validated project: absolute paths, the system spec, and the knobs as written (the environment applies per run). */
export interface ProjectConfig {
  /** Folder the relative paths are resolved against (the config file's folder). */
  root: string
  /** The config file, for messages; '<inline>' when the options were passed in code. */
  source: string
  corpus: CorpusSpec | null
  goldenSet: string
  baseline: string
  reports: string
  humanLabels: string
  prices: string | null
  /** The attack set (docs/security.md); a run without the file tries no attacks. */
  attackSet: string
  cacheDir: string
  recordingsDir: string
  system: SystemSpec
  /** The access rule: a function, the absolute path of a JSON rules file, or null (front matter alone). */
  access: AccessRule | string | null
  /** The knob values written in the config; `knobs(env)` applies the environment over them. */
  knobValues: Record<string, unknown>
}

const PROJECT_KEYS = Object.keys(ProjectFieldsSchema.shape)
const KNOB_KEYS = Object.keys(EvalKnobsSchema.shape)

/** Validates config values; an error names the field and the file (`locate` gives `file:line:column` when the text is known). */
export function resolveProjectConfig(
  values: unknown,
  options: { root: string; source: string; env: NodeJS.ProcessEnv; locate?: (field: string) => string },
): ProjectConfig {
  const { root, source, env } = options
  const where = options.locate ?? ((field: string) => `${source} field "${field}"`)
  if (typeof values !== 'object' || values === null || Array.isArray(values)) {
    throw new InputError(
      `${source}: expected the config object (export default defineConfig({ ... })), ` +
        `got ${Array.isArray(values) ? 'an array' : typeof values}`,
    )
  }
  const entries = Object.entries(values)
  const unknown = entries.map(([key]) => key).filter((key) => !PROJECT_KEYS.includes(key) && !KNOB_KEYS.includes(key))
  if (unknown.length > 0)
    throw new InputError(
      `${where(unknown[0]!)}: unknown config field(s) ${unknown.join(', ')}; expected only ${[...PROJECT_KEYS, ...KNOB_KEYS].join(', ')}`,
    )
  const projectValues = Object.fromEntries(entries.filter(([key]) => PROJECT_KEYS.includes(key)))
  const knobValues = Object.fromEntries(entries.filter(([key]) => KNOB_KEYS.includes(key)))
  const parsed = ProjectFieldsSchema.safeParse(projectValues)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const field = issue.path.map(String).join('.')
    throw new InputError(`${where(String(issue.path[0] ?? ''))}${issue.path.length > 1 ? ` (${field})` : ''}: ${issue.message}`)
  }
  // The knobs are checked now (a bad value fails before any work) and again with each run's environment.
  resolveEvalConfig(knobValues, env, source, where)
  const p = parsed.data
  const at = (path: string) => resolve(root, path)
  const envPath = (name: string, fallback: string) => (env[name] ? resolve(env[name]) : at(fallback))
  return {
    root,
    source,
    corpus: p.corpus === null ? null : { ...p.corpus, dir: at(p.corpus.dir) },
    goldenSet: at(p.goldenSet),
    baseline: at(p.baseline),
    reports: envPath('EVAL_REPORTS_DIR', p.reports),
    humanLabels: at(p.humanLabels),
    prices: p.prices === null ? null : at(p.prices),
    attackSet: at(p.attackSet),
    cacheDir: envPath('EVAL_CACHE_DIR', p.cacheDir),
    recordingsDir: envPath('EVAL_RECORDINGS_DIR', p.recordingsDir),
    system: typeof p.system === 'string' && p.system !== 'builtin' ? at(p.system) : p.system,
    access: typeof p.access === 'string' ? at(p.access) : p.access,
    knobValues,
  }
}

/** The run's knobs: the config's values under the environment's overrides. */
export function runKnobs(project: ProjectConfig, env: NodeJS.ProcessEnv): EvalConfig {
  return resolveEvalConfig(project.knobValues, env, project.source)
}

/** A path as reports show it: relative to the project root (stable across machines), absolute when outside it. */
export function displayPath(project: Pick<ProjectConfig, 'root'>, path: string): string {
  const rel = relative(project.root, path).split('\\').join('/')
  return rel === '' ? '.' : rel.startsWith('..') || isAbsolute(rel) ? path : rel
}
