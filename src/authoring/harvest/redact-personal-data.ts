import { REDACTED, redactSecrets } from '../../common/secrets.ts'
import type { AskedQuestion } from './asked-question.ts'

/** What personal data and credentials look like in a question, each with what replaces it; the run's secrets come first. */
const SHAPES: readonly { kind: string; pattern: RegExp; mask: string }[] = [
  {
    kind: 'API key',
    mask: REDACTED,
    pattern: new RegExp(
      [
        /\bsk-[A-Za-z0-9_-]{16,}/, // Anthropic (sk-ant-...), OpenAI
        /\bAKIA[0-9A-Z]{16}\b/, // AWS access key id
        /\bgh[pousr]_[A-Za-z0-9]{30,}/, // GitHub
        /\bxox[abprs]-[A-Za-z0-9-]{10,}/, // Slack
        /\bAIza[0-9A-Za-z_-]{35}/, // Google
        /\blsv2_[A-Za-z0-9_]{20,}/, // LangSmith
        /\beyJ[\w-]{8,}\.[\w-]{8,}\.[\w-]{8,}/, // a JWT
        /\bBearer\s+[\w.~+/-]{16,}=*/,
        // A long run of letters and digits with both: a token, not a word or a number.
        /\b(?=[A-Za-z0-9_-]*\d)(?=[A-Za-z0-9_-]*[A-Za-z])[A-Za-z0-9_-]{32,}\b/,
      ]
        .map((p) => p.source)
        .join('|'),
      'g',
    ),
  },
  { kind: 'email', mask: '[email]', pattern: /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g },
  {
    kind: 'phone number',
    mask: '[phone]',
    // +44 20 7946 0958, (555) 123-4567, 555.123.4567, +4915112345678; not a date (2026-05-02) nor an amount
    // (10 000 000): the last group has four digits.
    pattern: /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{2,4}\)[\s.-]?|\b\d{2,4}[\s.-])\d{3,4}[\s.-]\d{4}\b|\+\d{8,15}\b/g,
  },
]

/** Counts of what was redacted, by kind (never the values). */
export type Redactions = Map<string, number>

/** The text without the run's secrets, API-key shapes, emails and phone numbers, counting each kind replaced. */
export function redactText(text: string, counts: Redactions): string {
  const secretless = redactSecrets(text)
  const secrets = secretless.split(REDACTED).length - text.split(REDACTED).length
  if (secrets > 0) counts.set('configured secret', (counts.get('configured secret') ?? 0) + secrets)
  return SHAPES.reduce(
    (redacted, { kind, pattern, mask }) =>
      redacted.replace(pattern, () => {
        counts.set(kind, (counts.get(kind) ?? 0) + 1)
        return mask
      }),
    secretless,
  )
}

function redactValue(value: unknown, counts: Redactions): unknown {
  if (typeof value === 'string') return redactText(value, counts)
  if (Array.isArray(value)) return value.map((v) => redactValue(v, counts))
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, redactValue(v, counts)]))
  return value
}

/** A question with every text it carries redacted: the question, its history, its asker, production's answer (not ids). */
export function redactAsked(asked: AskedQuestion, counts: Redactions): AskedQuestion {
  const { file, line, flag, askedAt, retrievedIds, ...texts } = asked
  return { ...(redactValue(texts, counts) as typeof texts), retrievedIds, file, line, flag, askedAt }
}
