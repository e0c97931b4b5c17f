/**
 * The checkable facts of a gold answer, and whether a text states them.
 *
 * A fact is something a reader can check against a document letter by letter: a number, a money
 * amount, a percentage, a duration, a date, a time of day, an identifier or a proper name. Everything
 * else in a gold answer (verbs, common nouns, reasoning) is prose the linter does not judge.
 *
 * Extraction (`extractFacts`, applied to the gold answer) works in this order, each match masking its
 * text so that later patterns do not see it again:
 *
 * 1. identifiers: a word of letters and digits starting with a letter, optionally joined by - _ .
 *    ("doc-019", "P1", "p99", "N-2", "SHA-256"), and dotted versions with three parts ("3.5.1");
 * 2. dates: ISO "2026-03-02", "18 December" / "December 18" (with an optional year);
 * 3. times of day: "15:00", "9:30 am", "3 pm" (normalised to 24-hour "15:00");
 * 4. money: a currency code or sign with an amount, either side ("USD 5,000", "5,000 USD", "$5k",
 *    "400 euros");
 * 5. percentages: "50%", "50 percent";
 * 6. durations: a number and a unit of time, hyphenated or not, with an optional business / working /
 *    calendar qualifier ("90 days", "90-day", "5 business days'", "24h");
 * 7. other numbers: "40", "5,000", "3.5", "7.0";
 * 8. proper names: all-caps acronyms ("CAB", "TAM"; units such as GB are not names), runs of two or more
 *    capitalised words ("Elena Marsh", "Kestrel Private", "Technical Account Manager"; a leading
 *    stopword such as "The" or "A" is dropped, and so is the first word of a run that starts a
 *    sentence: "Ask Elena Marsh" names "Elena Marsh") and single capitalised words that do not start
 *    a sentence ("Tuesdays", "Business"). Punctuation ends a run.
 *
 * Normalisation, so that the same fact written two ways compares equal:
 * - numbers drop thousands separators and trailing decimal zeros: "5,000" = "5000", "7.0" = "7";
 *   a "k" suffix or "thousand" / "million" multiplies ("5k" = "5000");
 * - units are singular and qualifiers canonical: "90 days" = "90-day" = "90 day";
 *   "working day" = "business day"; "calendar day" = "day"; "hrs" = "hour";
 * - currencies are codes: "$" = "USD", "€" = "EUR", "£" = "GBP", "dollars" = "USD";
 * - "15:00" = "3 pm"; "18 December" = "December 18" = "18 Dec"; a date with a year also states the year
 *   as a number ("15 June 1924", "May 17, 1965" and "1924-06-15" state "1924");
 * - names compare word by word, case-insensitively, ignoring a possessive "'s" and a plural "s"
 *   ("Tuesdays" = "tuesday", "Kestrel's" = "Kestrel").
 *
 * A text states a fact (`textEvidence` + `states`) when it contains the same normalised value: a
 * money amount needs the same currency, a duration the same unit, a percentage a percent sign or word;
 * a plain number is stated by the same number anywhere in the text (inside an amount, a duration or a
 * percentage too); a name by the same words in a row. Evidence texts are read leniently:
 * - number words count ("five business days" states "5 business days", "an hour" states "1 hour"),
 *   because documents spell numbers out more than gold answers do;
 * - a bare number in a Markdown table states an amount, duration or percentage when its column header
 *   names the currency, unit or percent: under "Retention (days)" a cell "90" states "90 days", under
 *   "Price (USD)" a cell "5000" states "USD 5,000". In prose a bare "5000" does not state "USD 5,000"
 *   (the currency could be any), nor does "Tier 1" next to "hours" state "1 hour".
 */

export type FactKind = 'id' | 'date' | 'time' | 'money' | 'percent' | 'duration' | 'number' | 'name'

export interface Fact {
  kind: FactKind
  /** As written in the text. */
  text: string
  /** Normalised value; two facts with the same key are the same fact. */
  key: string
}

/** What a text states: the keys of its non-name facts and its words, normalised for name matching. */
export interface TextEvidence {
  keys: ReadonlySet<string>
  words: readonly string[]
}

const NUMBER = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`
const NUMBER_WORDS: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  hundred: 100,
}
const NUMBER_WORD = String.raw`(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:-(?:one|two|three|four|five|six|seven|eight|nine))?|zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|hundred`

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
]
const MONTH = String.raw`(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)`

const CURRENCY_CODES = [
  'USD',
  'EUR',
  'GBP',
  'CHF',
  'JPY',
  'CAD',
  'AUD',
  'NZD',
  'SEK',
  'NOK',
  'DKK',
  'PLN',
  'CZK',
  'INR',
  'CNY',
  'SGD',
  'BRL',
  'MXN',
]
const CURRENCY_SIGNS: Record<string, string> = { $: 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY' }
const CURRENCY_WORDS: Record<string, string> = {
  dollar: 'USD',
  dollars: 'USD',
  euro: 'EUR',
  euros: 'EUR',
  pound: 'GBP',
  pounds: 'GBP',
}
const CODE = `(?:${CURRENCY_CODES.join('|')})`
const MAGNITUDE = String.raw`(?:\s?(?:k|K|thousand|million|M|bn|billion)\b)?`

/** Unit spellings -> canonical singular unit. */
const UNITS: Record<string, string> = {
  ms: 'millisecond',
  millisecond: 'millisecond',
  milliseconds: 'millisecond',
  sec: 'second',
  secs: 'second',
  second: 'second',
  seconds: 'second',
  min: 'minute',
  mins: 'minute',
  minute: 'minute',
  minutes: 'minute',
  h: 'hour',
  hr: 'hour',
  hrs: 'hour',
  hour: 'hour',
  hours: 'hour',
  d: 'day',
  day: 'day',
  days: 'day',
  wk: 'week',
  wks: 'week',
  week: 'week',
  weeks: 'week',
  month: 'month',
  months: 'month',
  quarter: 'quarter',
  quarters: 'quarter',
  yr: 'year',
  yrs: 'year',
  year: 'year',
  years: 'year',
}
/** Units written out (with a space or hyphen before them); the short forms only glued to the number ("24h"). */
const SPELLED_UNIT = String.raw`(?:milliseconds?|seconds?|secs?|minutes?|mins?|hours?|hrs?|days?|weeks?|wks?|months?|quarters?|years?|yrs?)`
const GLUED_UNIT = String.raw`(?:ms|h|d|wk|yr)`
const QUALIFIER = String.raw`(?:(business|working|calendar)[-\s])?`

/** All-caps words that are units or filler, not names. */
const NOT_NAMES = new Set(['GB', 'MB', 'KB', 'TB', 'PB', 'GIB', 'MIB', 'TIB', 'OK', 'AM', 'PM', 'TODO', 'FYI', 'NB', 'ID', 'IDS'])
const LEADING_STOPWORDS = new Set([
  'a',
  'an',
  'the',
  'if',
  'no',
  'yes',
  'and',
  'or',
  'but',
  'so',
  'because',
  'when',
  'while',
  'for',
  'in',
  'on',
  'at',
  'to',
  'by',
  'from',
  'with',
  'only',
  'all',
  'every',
  'each',
  'any',
  'this',
  'that',
  'these',
  'those',
  'it',
  'its',
  'they',
  'we',
  'you',
  'our',
  'your',
  'their',
  'after',
  'before',
  'since',
  'until',
  'unless',
  'then',
  'also',
  'both',
  'either',
  'neither',
  'not',
  'as',
  'per',
  'there',
])

function normaliseNumber(raw: string): number {
  return Number(raw.replace(/,/g, ''))
}

function formatNumber(value: number): string {
  // Round away float noise from magnitudes (1.1 * 1000), then print the shortest form.
  return String(Number(value.toPrecision(12)))
}

function magnitudeOf(suffix: string | undefined): number {
  const s = (suffix ?? '').trim()
  if (s === 'k' || s === 'K' || s === 'thousand') return 1_000
  if (s === 'M' || s === 'million') return 1_000_000
  if (s === 'bn' || s === 'billion') return 1_000_000_000
  return 1
}

function numberWordValue(word: string): number {
  const [tens, unit] = word.toLowerCase().split('-')
  return (NUMBER_WORDS[tens!] ?? 0) + (unit === undefined ? 0 : (NUMBER_WORDS[unit] ?? 0))
}

function monthIndex(name: string): number {
  const lower = name.toLowerCase()
  return MONTHS.findIndex((month) => month.startsWith(lower.slice(0, 3)))
}

function dateKeys(month: number, day: number, year: string | undefined): string[] {
  const mm = String(month + 1).padStart(2, '0')
  const dd = String(day).padStart(2, '0')
  const keys = [`date:${mm}-${dd}`]
  // A date's year is stated too: "15 June 1924" states the "1924" of a gold answer that gives the year only.
  if (year !== undefined) keys.push(`date:${year}-${mm}-${dd}`, `num:${Number(year)}`)
  return keys
}

/** Words of a text for name matching: lower-cased, possessive "'s" and plural "s" dropped. */
export function nameWords(text: string): string[] {
  const words: string[] = []
  for (const raw of text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []) {
    if (raw === 's') continue
    words.push(raw.length > 3 && raw.endsWith('s') && !raw.endsWith('ss') ? raw.slice(0, -1) : raw)
  }
  return words
}

interface Found {
  kind: Exclude<FactKind, 'name'>
  text: string
  /** The first key names the fact; the others are what else it states (an amount also states its number). */
  keys: string[]
}

/** Replaces a match by spaces of the same length, so offsets stay put and later patterns skip it. */
function mask(text: string, index: number, length: number): string {
  return text.slice(0, index) + ' '.repeat(length) + text.slice(index + length)
}

/**
 * Runs one pattern over the (masked) text; `toFound` turns a match into a fact or null to leave it.
 * Returns the facts and the text with the matches masked.
 */
function scan(
  text: string,
  pattern: RegExp,
  toFound: (match: RegExpExecArray) => Found | null,
): { text: string; found: Found[] } {
  const found: Found[] = []
  let masked = text
  for (const match of text.matchAll(pattern)) {
    const fact = toFound(match)
    if (fact === null) continue
    found.push(fact)
    masked = mask(masked, match.index, match[0].length)
  }
  return { text: masked, found }
}

/** Runs one pass over what the earlier passes left: its facts are kept, its matches masked. */
type Pass = (pattern: RegExp, toFound: (match: RegExpExecArray) => Found | null) => void

/** Facts other than names, in the order of the passes above. `lenient` also reads number words. */
function scanValues(input: string, lenient: boolean): { found: Found[]; rest: string } {
  const found: Found[] = []
  let text = input
  const pass: Pass = (pattern, toFound) => {
    const result = scan(text, pattern, toFound)
    text = result.text
    found.push(...result.found)
  }
  identifierAndDatePasses(pass)
  timeAndMoneyPasses(pass)
  quantityPasses(pass, lenient)
  return { found, rest: text }
}

/** Passes 1 and 2. */
function identifierAndDatePasses(pass: Pass): void {
  // 1. identifiers and three-part versions
  pass(
    /(?<![\p{L}\p{N}_.-])(?:[A-Za-z][A-Za-z0-9_]*(?:[-_.][A-Za-z0-9_]+)*|\d+(?:\.\d+){2,})(?![\p{L}\p{N}_]|[-.][\p{L}\p{N}])/gu,
    (m) =>
      /\d/.test(m[0]) && (/[A-Za-z]/.test(m[0]) || /^\d+(?:\.\d+){2,}$/.test(m[0]))
        ? { kind: 'id', text: m[0], keys: [`id:${m[0].toLowerCase()}`] }
        : null,
  )
  // 2. dates
  pass(/\b(\d{4})-(\d{2})-(\d{2})\b/g, (m) => {
    const month = Number(m[2]) - 1
    const day = Number(m[3])
    return { kind: 'date', text: m[0], keys: [`date:${m[1]}-${m[2]}-${m[3]}`, ...dateKeys(month, day, m[1])] }
  })
  pass(new RegExp(String.raw`\b(\d{1,2})(?:st|nd|rd|th)?\s+(${MONTH})\b(?:,?\s+(\d{4})\b)?`, 'g'), (m) => {
    return { kind: 'date', text: m[0].trim(), keys: dateKeys(monthIndex(m[2]!), Number(m[1]), m[3]) }
  })
  pass(new RegExp(String.raw`\b(${MONTH})\.?\s+(\d{1,2})(?:st|nd|rd|th)?\b(?:,?\s+(\d{4})\b)?`, 'g'), (m) => {
    return { kind: 'date', text: m[0].trim(), keys: dateKeys(monthIndex(m[1]!), Number(m[2]), m[3]) }
  })
}

/** Passes 3 and 4. */
function timeAndMoneyPasses(pass: Pass): void {
  // 3. times of day
  pass(/\b([01]?\d|2[0-3]):([0-5]\d)(?:\s*([ap])\.?m\.?(?![\p{L}]))?/giu, (m) => {
    let hour = Number(m[1])
    if (m[3] !== undefined && m[3].toLowerCase() === 'p' && hour < 12) hour += 12
    if (m[3] !== undefined && m[3].toLowerCase() === 'a' && hour === 12) hour = 0
    return { kind: 'time', text: m[0], keys: [`time:${hour}:${m[2]}`] }
  })
  pass(/\b(1[0-2]|0?[1-9])\s*([ap])\.?m\.?(?![\p{L}])/giu, (m) => {
    let hour = Number(m[1]) % 12
    if (m[2]!.toLowerCase() === 'p') hour += 12
    return { kind: 'time', text: m[0], keys: [`time:${hour}:00`] }
  })
  // 4. money
  const money = (currency: string, amount: string, suffix: string | undefined, text: string): Found => {
    const value = formatNumber(normaliseNumber(amount) * magnitudeOf(suffix))
    return {
      kind: 'money',
      text: text.trim(),
      keys: [`money:${currency}:${value}`, `num:${value}`, `num:${formatNumber(normaliseNumber(amount))}`],
    }
  }
  pass(new RegExp(String.raw`(?:\b(${CODE})\s?|([$€£¥])\s?)(${NUMBER})(${MAGNITUDE})`, 'g'), (m) =>
    money(m[1] ?? CURRENCY_SIGNS[m[2]!]!, m[3]!, m[4], m[0]),
  )
  pass(
    new RegExp(String.raw`(?<![\p{L}\p{N}.,])(${NUMBER})(${MAGNITUDE})\s?(${CODE}\b|dollars?\b|euros?\b|pounds?\b)`, 'gu'),
    (m) => money(CURRENCY_WORDS[m[3]!.toLowerCase()] ?? m[3]!, m[1]!, m[2], m[0]),
  )
}

/** Passes 5 to 7 (number words too when `lenient`). */
function quantityPasses(pass: Pass, lenient: boolean): void {
  const quantity = lenient ? `(?:${NUMBER}|${NUMBER_WORD}|an?)` : `(?:${NUMBER})`
  const valueOf = (raw: string) =>
    /^\d/.test(raw) ? normaliseNumber(raw) : raw.toLowerCase() === 'a' || raw.toLowerCase() === 'an' ? 1 : numberWordValue(raw)

  // 5. percentages
  pass(new RegExp(String.raw`(?<![\p{L}\p{N}.,])(${NUMBER})\s?(?:%|percent\b|per cent\b)`, 'gu'), (m) => {
    const value = formatNumber(normaliseNumber(m[1]!))
    return { kind: 'percent', text: m[0], keys: [`pct:${value}`, `num:${value}`] }
  })
  // 6. durations
  const duration = (raw: string, qualifier: string | undefined, unit: string, text: string): Found => {
    const value = formatNumber(valueOf(raw))
    const canonical = UNITS[unit.toLowerCase()]!
    const unitKey = canonical === 'day' && (qualifier === 'business' || qualifier === 'working') ? 'business day' : canonical
    return { kind: 'duration', text, keys: [`dur:${value}:${unitKey}`, `num:${value}`] }
  }
  pass(new RegExp(String.raw`(?<![\p{L}\p{N}.,])(${quantity})[-\s]${QUALIFIER}(${SPELLED_UNIT})(?![\p{L}\p{N}])'?`, 'giu'), (m) =>
    duration(m[1]!, m[2]?.toLowerCase(), m[3]!, m[0]),
  )
  pass(new RegExp(String.raw`(?<![\p{L}\p{N}.,])(${NUMBER})(${GLUED_UNIT})(?![\p{L}\p{N}])`, 'gu'), (m) =>
    duration(m[1]!, undefined, m[2]!, m[0]),
  )
  // 7. other numbers (an ordinal, "x", a size unit or a "k" may be glued on)
  pass(new RegExp(String.raw`(?<![\p{L}\p{N}.,])(${NUMBER})(k|K)?(?:st|nd|rd|th|x|GB|MB|KB|TB)?(?![\p{L}\p{N}])`, 'gu'), (m) => {
    const value = formatNumber(normaliseNumber(m[1]!) * magnitudeOf(m[2]))
    return { kind: 'number', text: m[0], keys: [`num:${value}`] }
  })
  if (lenient) {
    pass(new RegExp(String.raw`\b(${NUMBER_WORD})\b`, 'giu'), (m) => ({
      kind: 'number',
      text: m[0],
      keys: [`num:${numberWordValue(m[1]!)}`],
    }))
  }
}

/** Proper names of the text left after the value passes (see the module comment, pass 8). */
function scanNames(text: string): Fact[] {
  const names: Fact[] = []
  // Tokens: words (letters, inner apostrophes and hyphens) and single punctuation characters.
  const tokens = text.match(/[\p{L}][\p{L}'’-]*|[^\s\p{L}]/gu) ?? []
  let sentenceStart = true
  let run: string[] = []
  let runAtStart = false
  const flush = () => {
    let words = run
    let atStart = runAtStart
    // Drop leading stopwords ("The CAB") and the first word of a sentence, which is capitalised
    // anyway ("Ask Elena Marsh" names "Elena Marsh").
    while (words.length > 0 && (LEADING_STOPWORDS.has(words[0]!.toLowerCase()) || (atStart && words.length >= 2))) {
      words = words.slice(1)
      atStart = false
    }
    if (words.length >= 2 || (words.length === 1 && !atStart)) {
      const name = words.join(' ')
      names.push({ kind: 'name', text: name, key: `name:${nameWords(name).join(' ')}` })
    }
    run = []
  }
  for (const token of tokens) {
    const isWord = /^\p{L}/u.test(token)
    if (isWord && /^[A-Z]{2,}s?$/.test(token) && !NOT_NAMES.has(token.replace(/s$/, '').toUpperCase())) {
      // An acronym is a name of its own and ends a run of capitalised words.
      flush()
      names.push({ kind: 'name', text: token, key: `name:${nameWords(token.replace(/s$/, '')).join(' ')}` })
      sentenceStart = false
      continue
    }
    if (isWord && /^\p{Lu}/u.test(token) && /\p{Ll}/u.test(token)) {
      if (run.length === 0) runAtStart = sentenceStart
      run.push(token)
      sentenceStart = false
      continue
    }
    flush()
    if (isWord) sentenceStart = false
    else if (/[.!?:;•]/.test(token)) sentenceStart = true
  }
  flush()
  return names
}

function toFacts(found: readonly Found[]): Fact[] {
  return found.map(({ kind, text, keys }) => ({ kind, text, key: keys[0]! }))
}

/** The facts of a gold answer, in the order of the passes (values first, then names), without repeats. */
export function extractFacts(text: string): Fact[] {
  // A line break in the middle of a sentence is a space; blank lines, bullets and headings start sentences.
  const flat = text.replace(/(?:\r?\n[ \t]*)+(?:[-*+]\s|#+\s|\d+[.)]\s)?/g, (m) =>
    m.trim() === '' && m.split('\n').length === 2 ? ' ' : '. ',
  )
  const { found, rest } = scanValues(flat, false)
  const seen = new Set<string>()
  return [...toFacts(found), ...scanNames(rest)].filter((fact) => !seen.has(fact.key) && seen.add(fact.key))
}

const CURRENCY_MENTION = new RegExp(String.raw`\b(${CODE})\b|([$€£¥])|\b(dollars?|euros?|pounds?)\b`, 'g')
const UNIT_MENTION = new RegExp(String.raw`\b(?:(business|working|calendar)[-\s])?(${SPELLED_UNIT})\b`, 'gi')

/**
 * The keys bare numbers state because a text names their currency, unit of time or percent sign
 * (used for a table column's header: "Price (USD)" over "5000" states "USD 5,000").
 */
function borrowedKeys(header: string, plainNumbers: readonly string[]): string[] {
  if (plainNumbers.length === 0) return []
  const currencies = new Set(
    [...header.matchAll(CURRENCY_MENTION)].map(
      (m) => m[1] ?? CURRENCY_SIGNS[m[2] ?? ''] ?? CURRENCY_WORDS[(m[3] ?? '').toLowerCase()] ?? '',
    ),
  )
  const units = new Set(
    [...header.matchAll(UNIT_MENTION)].map((m) => {
      const unit = UNITS[m[2]!.toLowerCase()]!
      const qualifier = m[1]?.toLowerCase()
      return unit === 'day' && (qualifier === 'business' || qualifier === 'working') ? 'business day' : unit
    }),
  )
  const percent = /%|\bper ?cent\b/i.test(header)
  return plainNumbers.flatMap((n) => [
    ...[...currencies].filter((c) => c !== '').map((c) => `money:${c}:${n}`),
    ...[...units].map((u) => `dur:${n}:${u}`),
    ...(percent ? [`pct:${n}`] : []),
  ])
}

function cellsOf(row: string): string[] {
  return row
    .trim()
    .replace(/^\|/, '')
    .replace(/\|$/, '')
    .split('|')
    .map((cell) => cell.trim())
}

/** Keys of Markdown table cells holding bare numbers under a header naming their currency or unit. */
function tableKeys(text: string): string[] {
  const keys: string[] = []
  const lines = text.split(/\r?\n/)
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]!.trim().startsWith('|') || !/^\s*\|?[\s:|-]+$/.test(lines[i + 1] ?? '') || !(lines[i + 1] ?? '').includes('-'))
      continue
    const header = cellsOf(lines[i]!)
    let row = i + 2
    for (; row < lines.length && lines[row]!.trim().startsWith('|'); row++) {
      cellsOf(lines[row]!).forEach((cell, column) => {
        const plain = scanValues(cell, true)
          .found.filter((f) => f.kind === 'number')
          .map((f) => f.keys[0]!.slice('num:'.length))
        keys.push(...borrowedKeys(header[column] ?? '', plain))
      })
    }
    i = row - 1
  }
  return keys
}

/**
 * What a document (or a question) states, read leniently: number words count, and a bare number in
 * a table states the amount, duration or percentage its column header names the currency or unit of.
 */
export function textEvidence(text: string): TextEvidence {
  const { found } = scanValues(text, true)
  return { keys: new Set([...found.flatMap((f) => f.keys), ...tableKeys(text)]), words: nameWords(text) }
}

function containsSequence(words: readonly string[], sequence: readonly string[]): boolean {
  if (sequence.length === 0) return false
  outer: for (let i = 0; i + sequence.length <= words.length; i++) {
    for (let j = 0; j < sequence.length; j++) if (words[i + j] !== sequence[j]) continue outer
    return true
  }
  return false
}

/** Whether a text (its evidence) states a fact. */
export function states(evidence: TextEvidence, fact: Fact): boolean {
  if (fact.kind === 'name') return containsSequence(evidence.words, fact.key.slice('name:'.length).split(' '))
  return evidence.keys.has(fact.key)
}

/** The text of a corpus document the facts are checked against: its title and body. */
export function documentText(doc: { title: string; body: string }): string {
  return `${doc.title}\n${doc.body}`
}
