import { basename, extname, resolve } from 'node:path'
import type { SystemSpec } from '../config/project-config.ts'
import { InputError } from '../contract/input-error.ts'
import { importModule } from '../config/import-module.ts'
import { createBuiltinSystem, type Answerer, type Reranker } from '../builtin/builtin-system.ts'
import { builtCorpusOnTwoThreads } from '../threads/index.ts'
import { isRagSystem, type RagSystem, type RagSystemContext, type RagSystemFactory } from '../system/rag-system.ts'
import { inProcessSystem } from '../system/in-process-system.ts'
import { countTextTokens } from '../text/tokenizer.ts'
import type { CorpusDocument } from '../load/corpus.ts'
import { builtCorpusKey, readBuiltCorpus, writeBuiltCorpus } from '../builtin/built-corpus-cache.ts'
import { resolveHttpHeaders, secretVariables } from '../config/http-headers.ts'
import { registerSecret, secretFinder, type Secret } from '../common/secrets.ts'

/** What opening a system needs beyond its spec: the run's corpus and knobs, and where relative paths start. */
export interface OpenSystemContext extends RagSystemContext {
  /** Answer the questions (false: the retrieval tier, where the built-in system only retrieves). */
  generate: boolean
  /** The built-in system's answerer in the model modes (Claude through the run's model client). */
  answerer?: Answerer | undefined
  /** The built-in system's Claude reranker in the model modes (used when retrieval.reranker is 'claude'). */
  reranker?: Reranker | undefined
  /** The config file's folder: an HTTP service's command runs there unless it names its own cwd. */
  root: string
  /** The config file, for messages (default 'rag-eval.config.ts'). */
  source?: string | undefined
  /** The run's environment: what `${env:NAME}` in headers reads and a started service inherits (default: this process's). */
  env?: NodeJS.ProcessEnv | undefined
  log: (line: string) => void
  /** Where the built-in system keeps its corpus work between runs, for this corpus hash; no caching when absent. */
  corpusCache?: { folder: string; corpusHash: string; warn: (message: string) => void } | undefined
}

/** A RagSystem, or a factory's result, checked: a module that exports something else is named. */
async function fromExport(exported: unknown, context: RagSystemContext, source: string): Promise<RagSystem> {
  const system = typeof exported === 'function' ? await (exported as RagSystemFactory)(context) : exported
  if (!isRagSystem(system)) {
    throw new InputError(
      `${source}: expected a RagSystem (an object with answer(question)) or a factory returning one, got ${system === null ? 'null' : typeof system}`,
    )
  }
  return system
}

/** The same system under another name, or with another close(); its methods keep their own `this`. */
function wrapped(system: RagSystem, changes: { name?: string; close?: () => Promise<void> }): RagSystem {
  const close = changes.close ?? (system.close ? () => system.close!() : undefined)
  return {
    name: changes.name ?? system.name,
    ...(system.chunkCountByDoc === undefined ? {} : { chunkCountByDoc: system.chunkCountByDoc }),
    answer: (question) => system.answer(question),
    ...(close === undefined ? {} : { close }),
  }
}

/** A system without a name is named after its source, so reports and baselines can tell systems apart. */
function named(system: RagSystem, fallback: string): RagSystem {
  return typeof system.name === 'string' && system.name.length > 0 ? system : wrapped(system, { name: fallback })
}

/** The built-in system from kept corpus work when there is some; a large corpus never built is indexed on a second thread. */
async function builtinSystem(corpus: readonly CorpusDocument[], context: OpenSystemContext): Promise<RagSystem> {
  const { config, corpusCache: cache } = context
  const key = cache ? builtCorpusKey(cache.corpusHash, config) : null
  const kept = cache && key ? readBuiltCorpus(cache.folder, key) : null
  const built = kept ?? (await builtCorpusOnTwoThreads(corpus, config))
  const { generate, answerer, reranker } = context
  const system = createBuiltinSystem(corpus, { ...config, generate, answerer, reranker, built })
  if (cache && key && system.built !== kept) {
    try {
      writeBuiltCorpus(cache.folder, key, system.built)
    } catch (error) {
      cache.warn(
        `the built corpus could not be kept in ${cache.folder} (${(error as Error).message}): the next run builds it again`,
      )
    }
  }
  return system
}

/**
 * Refuses a secret (registered, or about to be) that the corpus holds in any form: redacting it from what the system
 * returns would mask the corpus's own text and change the metrics in silence. Names the document and the secret's source.
 */
function refuseSecretsInCorpus(corpus: readonly CorpusDocument[] | null, candidates: readonly Secret[]): void {
  const find = secretFinder(candidates)
  for (const doc of corpus ?? []) {
    const held = [doc.id, doc.title, doc.body].flatMap(find)
    if (held.length > 0)
      throw new InputError(
        `${doc.file}: holds the value of ${[...new Set(held)].join(', ')}, a secret: the run would redact the corpus's own text from every answer and context and change the metrics; use a secret no document holds (a random key)`,
      )
  }
}

/**
 * The system under test from its spec: 'builtin', a module path, an object or factory inline, or an HTTP service
 * (started by its command when given, stopped by close()).
 */
export async function openSystem(spec: SystemSpec, context: OpenSystemContext): Promise<RagSystem> {
  const http = typeof spec === 'object' && !isRagSystem(spec) ? spec.http : null
  const env = context.env ?? process.env
  // Resolved before the service starts and before any request: a missing variable fails the run at once. The values
  // (and those of the service's variables named as secrets) are this process's secrets from then on.
  const resolved = http && resolveHttpHeaders(http.headers, env, `${context.source ?? 'rag-eval.config.ts'} system.http`)
  const secrets = [...(resolved?.secrets ?? []), ...secretVariables(http?.env ?? {}, 'system.http.env')]
  refuseSecretsInCorpus(context.corpus, secrets)
  for (const { value, source } of secrets) registerSecret(value, source)
  if (spec === 'builtin') {
    if (context.corpus === null)
      throw new InputError(
        "system 'builtin' needs a corpus: set corpus in rag-eval.config.ts, or point system at your own pipeline",
      )
    return builtinSystem(context.corpus, context)
  }
  // A system of the user's own answers within timeoutMs and by the HTTP contract's schema, like a service.
  const heldToContract = (system: RagSystem) =>
    inProcessSystem(system, {
      timeoutMs: context.config.timeoutMs,
      budgetTokens: context.config.budgetTokens,
      countTokens: countTextTokens,
    })
  if (typeof spec === 'string') {
    let exported: unknown
    try {
      exported = await importModule(spec)
    } catch (error) {
      throw new InputError(`system module ${spec} failed to load: ${(error as Error).message.split('\n')[0]}`)
    }
    return heldToContract(named(await fromExport(exported, context, `system module ${spec}`), basename(spec, extname(spec))))
  }
  if (!http || !resolved) return heldToContract(named(await fromExport(spec, context, 'system (inline)'), 'inline-system'))
  // The HTTP client and the service launcher are imported here: no other system needs them.
  const [{ createHttpSystem }, { startService }] = await Promise.all([
    import('../system/http-system.ts'),
    import('../system/service-launcher.ts'),
  ])
  const service = http.command
    ? await startService({
        command: http.command,
        url: http.url,
        ...(http.readyUrl === undefined ? {} : { readyUrl: http.readyUrl }),
        ...(http.timeoutMs === undefined ? {} : { timeoutMs: http.timeoutMs }),
        ...(http.reuseExisting === undefined ? {} : { reuseExisting: http.reuseExisting }),
        cwd: resolve(context.root, http.cwd ?? '.'),
        // The service's own lines go to stderr: beside the run's output, and kept by Vitest for a failure message.
        log: (line) => process.stderr.write(`${line}\n`),
        // The run's environment (a comparison side's --b-env included) under the service's own variables.
        env: { ...env, ...http.env },
      })
    : null
  const system = createHttpSystem({
    url: http.url,
    headers: resolved.headers,
    timeoutMs: context.config.timeoutMs,
    maxRetries: context.config.maxRetries,
    retryBaseMs: context.config.retryBaseMs,
    retryMaxMs: context.config.retryMaxMs,
    budgetTokens: context.config.budgetTokens,
    countTokens: countTextTokens,
  })
  if (!service) return system
  return wrapped(system, {
    async close() {
      await system.close?.()
      await service.stop()
    },
  })
}
