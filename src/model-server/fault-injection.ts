import { InputError } from '../contract/input-error.ts'
import { errorReply, forcedToolName, textReply, toolUseReply, type Responder, type ScriptedReply } from './messages-server.ts'

// Fault injection for the local Messages API server (`--fault 429:every=3`); kinds and grammar: docs/reliability.md,
// "Rehearse the faults yourself". Rule n (1-based, arrival order) hits when n > after and (n - after) % every == 0; the
// first rule that hits decides. Tool faults touch only forced-tool requests; batch items are never faulted.

export const FAULT_KINDS = ['429', '529', '500', 'hang', 'drop', 'malformed-tool', 'text-instead-of-tool'] as const
export type FaultKind = (typeof FAULT_KINDS)[number]

export interface FaultRule {
  kind: FaultKind
  /** Hits every `every`-th request counted after `after` (>= 1). */
  every: number
  /** Requests answered normally before the rule starts counting (>= 0). */
  after: number
}

/** The wait a 429 asks for (retry-after, seconds): what the API sends, and short enough to rehearse with. */
export const RATE_LIMIT_RETRY_AFTER_S = 1

const GRAMMAR = 'kind[:every=N][:after=N][,kind...]'
const isKind = (text: string): text is FaultKind => (FAULT_KINDS as readonly string[]).includes(text)

/** Parses a fault spec; a mistake is an InputError naming the part at fault and what is expected. */
export function parseFaultSpec(spec: string): FaultRule[] {
  if (spec.trim() === '') throw new InputError(`empty fault spec; expected ${GRAMMAR}`)
  const rules = spec.split(',')
  return rules.map((rule) => {
    try {
      return parseFaultRule(rule.trim())
    } catch (error) {
      // With several rules, say which one is wrong.
      if (rules.length > 1 && error instanceof InputError) throw new InputError(`fault "${rule.trim()}": ${error.message}`)
      throw error
    }
  })
}

function parseFaultRule(rule: string): FaultRule {
  const [kind = '', ...options] = rule.split(':')
  if (kind === '') throw new InputError(`empty fault; expected ${GRAMMAR}`)
  if (!isKind(kind)) throw new InputError(`unknown fault "${kind}"; expected one of ${FAULT_KINDS.join(', ')}`)
  const parsed: FaultRule = { kind, every: 1, after: 0 }
  const seen = new Set<string>()
  for (const option of options) {
    const [, name = '', value] = /^([^=]*)(?:=(.*))?$/.exec(option)!
    if (name !== 'every' && name !== 'after') throw new InputError(`unknown option "${name}"; expected every=N or after=N`)
    if (seen.has(name)) throw new InputError(`${name} given twice`)
    seen.add(name)
    const min = name === 'every' ? 1 : 0
    if (value === undefined || !/^\d+$/.test(value) || Number(value) < min || !Number.isSafeInteger(Number(value))) {
      throw new InputError(`${name}${value === undefined ? '' : `=${value}`}: expected ${name}=N, N a whole number >= ${min}`)
    }
    parsed[name] = Number(value)
  }
  return parsed
}

/** Whether a rule hits request number `n` (1-based). */
export function faultHits(rule: FaultRule, n: number): boolean {
  return n > rule.after && (n - rule.after) % rule.every === 0
}

/** The faulty reply of `kind` to a request, or null when the kind does not apply to it (a tool fault on a request that forces no tool). */
function faultReply(kind: FaultKind, request: Parameters<Responder>[0]): ScriptedReply | null {
  switch (kind) {
    case '429':
      return errorReply(
        429,
        'rate_limit_error',
        'Number of request tokens has exceeded your per-minute rate limit (injected fault)',
        { 'retry-after': String(RATE_LIMIT_RETRY_AFTER_S) },
      )
    case '529':
      return errorReply(529, 'overloaded_error', 'Overloaded (injected fault)')
    case '500':
      return errorReply(500, 'api_error', 'Internal server error (injected fault)')
    case 'hang':
      return { kind: 'hang' }
    case 'drop':
      return { kind: 'drop' }
    case 'malformed-tool':
      // A call of the right tool whose input no schema of ours accepts.
      return forcedToolName(request) === null
        ? null
        : toolUseReply(request, { unexpected: 'injected fault: not the tool input schema' })
    case 'text-instead-of-tool':
      return forcedToolName(request) === null ? null : textReply(request, 'I would rather answer in prose (injected fault).')
  }
}

/** A responder that answers with the faults of `rules` where they hit, and with `base` otherwise. */
export function withFaults(base: Responder, rules: readonly FaultRule[]): Responder {
  return (request) => {
    // Batch items (index -1) are left alone: their faults are the batch plan's (errored, expired...).
    if (request.index < 0) return base(request)
    const n = request.index + 1
    for (const rule of rules) {
      if (!faultHits(rule, n)) continue
      const reply = faultReply(rule.kind, request)
      if (reply) return reply
    }
    return base(request)
  }
}
