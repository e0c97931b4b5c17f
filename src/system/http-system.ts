import { InputError } from '../contract/input-error.ts'
import { retryAfterMs, retryDelay } from '../model/backoff.ts'
import { checkHttpResponse, type HttpChunk, type HttpRequest, type HttpResponse } from './http-contract.ts'
import { packContext } from './context-packer.ts'
import type { RagSystem, RetrievedChunk, SystemAnswer, SystemQuestion } from './rag-system.ts'
import { SystemError } from './system-error.ts'
import { parseServiceUrl } from './service-url.ts'

export interface HttpSystemOptions {
  /** Where each question is POSTed (http or https). */
  url: string
  /** Limit for one attempt, from the request until the whole body is read. */
  timeoutMs: number
  /** Retries after the first attempt, for 408, 429, 5xx, timeouts and connection failures. */
  maxRetries: number
  /** First backoff delay; doubles per retry, with jitter. */
  retryBaseMs: number
  /** Longest wait before a retry; a Retry-After beyond it ends the retries. */
  retryMaxMs: number
  /** Context budget used to pack `ranked` when the service sends no `context`. */
  budgetTokens: number
  /** The suite's tokenizer, for chunks that come without `tokens`. */
  countTokens: (text: string) => number
  /** Name in reports; default the url. */
  name?: string
}

/**
 * Statuses worth another attempt: request timeout, rate limit, server errors. Any other 4xx will fail the
 * same way again. Unlike the model client's (model/backoff.ts), 409 is not retried: a service's conflict is its answer.
 */
const isRetryableServiceStatus = (status: number) => status === 408 || status === 429 || status >= 500

/** First 200 characters of a body, on one line, for an error message. */
function excerpt(body: string): string {
  const line = body.replace(/\s+/g, ' ').trim()
  return line.length > 200 ? `${line.slice(0, 200)}...` : line
}

type Attempt = { ok: true; body: string } | { ok: false; retryable: boolean; description: string; retryAfterMs: number | null }

/** Why fetch failed, in words: the timeout, or the connection error's code and message. */
function describeFetchFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
    return `did not answer within ${timeoutMs} ms`
  const cause = error instanceof Error ? error.cause : undefined
  const detail =
    cause instanceof Error
      ? [(cause as NodeJS.ErrnoException).code, cause.message].filter(Boolean).join(' ')
      : error instanceof Error
        ? error.message
        : String(error)
  return `could not be reached (${detail})`
}

/** One POST of the question: the body, or what went wrong and whether another try may pass. */
async function attempt(url: string, body: string, timeoutMs: number): Promise<Attempt> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    })
    const text = await response.text()
    if (response.ok) return { ok: true, body: text }
    const shown = excerpt(text)
    return {
      ok: false,
      retryable: isRetryableServiceStatus(response.status),
      description: `answered HTTP ${response.status}${shown ? `: ${shown}` : ''}`,
      retryAfterMs: retryAfterMs(response.headers),
    }
  } catch (error) {
    return { ok: false, retryable: true, description: describeFetchFailure(error, timeoutMs), retryAfterMs: null }
  }
}

/** The service's response, checked against the contract; a SystemError naming the question and the url otherwise. */
function parse(url: string, questionId: string, text: string): HttpResponse {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw new SystemError(
      questionId,
      `${questionId}: ${url} answered a body that is not JSON (${reason}): ${excerpt(text) || '(empty body)'}`,
    )
  }
  const checked = checkHttpResponse(json)
  if (!checked.ok) throw new SystemError(questionId, `${questionId}: ${url} answered ${checked.problems}`)
  return checked.response
}

/** A chunk with what the service left out filled in (chunkId from docId and position, score by position, tokens counted). */
function toChunk(
  item: HttpChunk,
  position: number,
  count: number,
  idPrefix: string,
  countTokens: (text: string) => number,
): RetrievedChunk {
  return {
    chunkId: item.chunkId ?? `${item.docId}#${idPrefix}${position}`,
    docId: item.docId,
    score: item.score ?? count - position,
    tokens: item.tokens ?? countTokens(item.text),
    text: item.text,
  }
}

/**
 * The context as the service sent it. An item without chunkId is the ranked chunk with the same docId
 * and text when there is one (so the context stays comparable with the ranking), else `${docId}#context-${position}`.
 */
function serviceContext(
  items: readonly HttpChunk[],
  ranked: readonly RetrievedChunk[],
  countTokens: (text: string) => number,
): RetrievedChunk[] {
  return items.map((item, position) => {
    if (item.chunkId === undefined) {
      const same = ranked.find((chunk) => chunk.docId === item.docId && chunk.text === item.text)
      if (same) return { ...same, tokens: item.tokens ?? same.tokens }
    }
    return toChunk(item, position, items.length, 'context-', countTokens)
  })
}

/**
 * A RagSystem that is a thin client of the user's service over HTTP (the contract in http-contract.ts):
 * POSTs each question, retries what may pass on a second try (408, 429, 5xx, timeouts, dropped
 * connections; exponential backoff with jitter, or the wait the Retry-After header asks), validates the
 * response, and fills what the service left out: `context` by packing `ranked` within `budgetTokens`,
 * `tokens` with `countTokens`, `chunkId` as `${docId}#${position}`, `score` as descending by position.
 * Every failure is a SystemError naming the question and the url. It cannot tell chunk counts per
 * document, so nDCG@10 is computed at document level (chunkCountByDoc absent).
 */
export function createHttpSystem(options: HttpSystemOptions): RagSystem {
  const { url, timeoutMs, maxRetries, countTokens } = options
  const parsedUrl = parseServiceUrl('HTTP system url', url)
  if (parsedUrl.protocol !== 'http:' && parsedUrl.protocol !== 'https:')
    throw new InputError(`HTTP system url ${url}: expected an http:// or https:// URL`)
  const policy = { maxRetries, baseDelayMs: options.retryBaseMs, maxDelayMs: options.retryMaxMs }

  /** The response body of the first successful attempt; a SystemError once retries are spent or pointless. */
  async function post(question: SystemQuestion): Promise<string> {
    const request: HttpRequest = { id: question.id, question: question.question, userContext: question.userContext ?? null }
    const body = JSON.stringify(request)
    for (let retry = 0; ; retry++) {
      const outcome = await attempt(url, body, timeoutMs)
      if (outcome.ok) return outcome.body
      const attempts = retry + 1
      const tried = attempts > 1 ? ` (after ${attempts} attempts)` : ''
      if (!outcome.retryable || retry >= maxRetries)
        throw new SystemError(question.id, `${question.id}: ${url} ${outcome.description}${tried}`)
      const delay = retryDelay(retry, policy, outcome.retryAfterMs)
      if (delay === null) {
        throw new SystemError(
          question.id,
          `${question.id}: ${url} ${outcome.description} and asked to ` +
            `wait ${Math.round(outcome.retryAfterMs ?? 0)} ms (Retry-After), ` +
            `longer than retryMaxMs=${options.retryMaxMs}${tried}`,
        )
      }
      await new Promise((resolve) => setTimeout(resolve, delay))
    }
  }

  return {
    name: options.name ?? url,
    async answer(question: SystemQuestion): Promise<SystemAnswer> {
      const response = parse(url, question.id, await post(question))
      const ranked = response.ranked.map((item, position) => toChunk(item, position, response.ranked.length, '', countTokens))
      const context =
        response.context == null
          ? packContext(ranked, options.budgetTokens)
          : serviceContext(response.context, ranked, countTokens)
      const result: SystemAnswer = { ranked, context }
      if (response.answer != null) result.answer = response.answer
      if (response.timingsMs) result.timingsMs = response.timingsMs
      return result
    },
  }
}
