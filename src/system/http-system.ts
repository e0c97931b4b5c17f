import { InputError } from '../contract/input-error.ts'
import { redactSecrets, redactSecretsIn } from '../common/secrets.ts'
import { retryAfterMs, retryDelay } from '../common/backoff.ts'
import { checkHttpResponse, type HttpRequest, type HttpResponse } from './http-contract.ts'
import { completeAnswer, withCallTime } from './complete-answer.ts'
import type { RagSystem, SystemAnswer, SystemQuestion } from './rag-system.ts'
import { decodeResponseText } from './response-text.ts'
import { SystemError } from './system-error.ts'
import { parseServiceUrl } from './service-url.ts'

export interface HttpSystemOptions {
  /** Where each question is POSTed (http or https). */
  url: string
  /** Sent with each request (e.g. Authorization); register secret values (common/secrets.ts) so they are redacted. */
  headers?: Readonly<Record<string, string>>
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

/** Unlike the model client's (common/backoff.ts), 409 is not retried: a service's conflict is its answer. */
const isRetryableServiceStatus = (status: number) => status === 408 || status === 429 || status >= 500

/** First 200 characters of a body, on one line, for an error message. */
function excerpt(body: string): string {
  const line = body.replace(/\s+/g, ' ').trim()
  return line.length > 200 ? `${line.slice(0, 200)}...` : line
}

type Attempt =
  { ok: true; body: Uint8Array } | { ok: false; retryable: boolean; description: string; retryAfterMs: number | null }

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

/**
 * A thin client of the user's service (docs/your-pipeline.md: retries, validation, defaults). Secrets are redacted
 * from what comes back before anything reads it, so an echoing service cannot leak them into a report or prompt.
 */
export function createHttpSystem(options: HttpSystemOptions): RagSystem {
  const parsedUrl = parseServiceUrl('HTTP system url', options.url)
  if (parsedUrl.protocol !== 'http:' && parsedUrl.protocol !== 'https:')
    throw new InputError(`HTTP system url ${options.url}: expected an http:// or https:// URL`)
  return {
    name: options.name ?? options.url,
    async answer(question: SystemQuestion): Promise<SystemAnswer> {
      const started = performance.now()
      const response = await post(options, question)
      const ms = performance.now() - started
      return withCallTime(completeAnswer(parseResponse(options.url, question.id, response), options), ms)
    },
  }
}

/** One POST of the request body: the response's bytes, or why it failed and whether another try may pass. */
async function attempt(options: HttpSystemOptions, body: string): Promise<Attempt> {
  const { url, timeoutMs } = options
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { accept: 'application/json', ...options.headers, 'content-type': 'application/json' },
      body,
      signal: AbortSignal.timeout(timeoutMs),
    })
    // The bytes as sent: a 2xx body's text is decoded strictly (response-text.ts), an error's leniently for its excerpt.
    const bytes = new Uint8Array(await response.arrayBuffer())
    if (response.ok) return { ok: true, body: bytes }
    // Redacted before the excerpt is cut: a secret cut in two would no longer be found.
    const shown = excerpt(redactSecrets(new TextDecoder().decode(bytes)))
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

/** Every failure's error; its message quotes the service's words and the fetch error, redacted. */
const failure = (questionId: string, message: string) => new SystemError(questionId, redactSecrets(message))

/** The response body of the first successful attempt; a SystemError once retries are spent or pointless. */
async function post(options: HttpSystemOptions, question: SystemQuestion): Promise<Uint8Array> {
  const { url, maxRetries } = options
  const policy = { maxRetries, baseDelayMs: options.retryBaseMs, maxDelayMs: options.retryMaxMs }
  // history only for a follow-up question: a standalone question's request is as it always was.
  const request: HttpRequest = {
    id: question.id,
    question: question.question,
    userContext: question.userContext ?? null,
    ...(question.history === undefined ? {} : { history: [...question.history] }),
  }
  const body = JSON.stringify(request)
  for (let retry = 0; ; retry++) {
    const outcome = await attempt(options, body)
    if (outcome.ok) return outcome.body
    const attempts = retry + 1
    const tried = attempts > 1 ? ` (after ${attempts} attempts)` : ''
    if (!outcome.retryable || retry >= maxRetries)
      throw failure(question.id, `${question.id}: ${url} ${outcome.description}${tried}`)
    const delay = retryDelay(retry, policy, outcome.retryAfterMs)
    if (delay === null) {
      throw failure(
        question.id,
        `${question.id}: ${url} ${outcome.description} and asked to wait ${Math.round(outcome.retryAfterMs ?? 0)} ms (Retry-After), longer than retryMaxMs=${options.retryMaxMs}${tried}`,
      )
    }
    await new Promise((resolve) => setTimeout(resolve, delay))
  }
}

/** The body as the contract's response: strict UTF-8, JSON, checked, with the run's secrets redacted. */
function parseResponse(url: string, questionId: string, body: Uint8Array): HttpResponse {
  const decoded = decodeResponseText(body)
  if (!decoded.ok) throw failure(questionId, `${questionId}: ${url} answered ${decoded.problem}`)
  const text = redactSecrets(decoded.text)
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error)
    throw failure(
      questionId,
      `${questionId}: ${url} answered a body that is not JSON (${reason}): ${excerpt(text) || '(empty body)'}`,
    )
  }
  // Strings are redacted once parsed too: an escape (\u0026) may have hidden a secret from the text.
  const checked = checkHttpResponse(redactSecretsIn(json))
  if (!checked.ok) throw failure(questionId, `${questionId}: ${url} answered ${checked.problems}`)
  return checked.response
}
