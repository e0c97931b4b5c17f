import { describe, expect, it } from 'vitest'
import { extractFacts, states, textEvidence } from './answer-facts.ts'

/** Whether `doc` states every fact of `claim`, fact by fact. */
function check(claim: string, doc: string): Record<string, boolean> {
  const evidence = textEvidence(doc)
  return Object.fromEntries(extractFacts(claim).map((fact) => [`${fact.kind} ${fact.text}`, states(evidence, fact)]))
}

describe('extractFacts', () => {
  it('finds numbers, amounts, percentages, durations, dates, times, ids and names, each once', () => {
    const facts = extractFacts(
      'Credits above USD 5,000 need CFO approval from Elena Marsh within 5 business days; 75% of P1 tickets (see doc-019) close by 15:00 UTC on Tuesdays, from 18 December, 40 at most, on 3.5.1.',
    )
    expect(facts.map((f) => [f.kind, f.text, f.key])).toEqual([
      ['id', 'P1', 'id:p1'],
      ['id', 'doc-019', 'id:doc-019'],
      ['id', '3.5.1', 'id:3.5.1'],
      ['date', '18 December', 'date:12-18'],
      ['time', '15:00', 'time:15:00'],
      ['money', 'USD 5,000', 'money:USD:5000'],
      ['percent', '75%', 'pct:75'],
      ['duration', '5 business days', 'dur:5:business day'],
      ['number', '40', 'num:40'],
      ['name', 'CFO', 'name:cfo'],
      ['name', 'Elena Marsh', 'name:elena marsh'],
      ['name', 'UTC', 'name:utc'],
      ['name', 'Tuesdays', 'name:tuesday'],
    ])
  })

  it('does not take sentence-initial words, leading stopwords or units for names', () => {
    expect(extractFacts('The CAB approves. Enterprise keeps 100 GB. Ask Elena Marsh.').map((f) => f.text)).toEqual([
      '100',
      'CAB',
      'Elena Marsh',
    ])
  })
})

describe('states: normalisation', () => {
  it.each([
    ['Keys expire after 90 days.', 'a 90-day expiry', { 'duration 90 days': true }],
    ['Credits above USD 5,000.', 'Credits above $5000 need approval.', { 'money USD 5,000': true }],
    ['Credits above USD 5,000.', 'Credits above 5000 USD.', { 'money USD 5,000': true }],
    ['costs 5k USD', 'costs USD 5,000', { 'money 5k USD': true }],
    ['Credits above USD 5,000.', 'Credits above EUR 5,000.', { 'money USD 5,000': false }],
    ['Credits above USD 5,000.', 'Credits above 5000 need approval.', { 'money USD 5,000': false }],
    ['within 5 business days', 'within five working days', { 'duration 5 business days': true }],
    ['within 1 hour', 'within an hour', { 'duration 1 hour': true }],
    ['within 14 days', 'within 14 business days', { 'duration 14 days': false }],
    ['at 3 pm on Tuesdays', 'on Tuesday at 15:00', { 'time 3 pm': true, 'name Tuesdays': true }],
    ['from 18 December to 2 January.', 'From December 18 until January 2', { 'date 18 December': true, 'date 2 January': true }],
    ['rated 7.0-8.9', 'High (CVSS 7.0-8.9): 14 days', { 'number 7.0': true, 'number 8.9': true }],
    ['a 15% discount', 'a 15 percent discount', { 'percent 15%': true }],
    ['ask Elena Marsh', "Elena Marsh's team", { 'name Elena Marsh': true }],
    ['ask Elena Marsh', 'Elena Marshall', { 'name Elena Marsh': false }],
    ['P1 at p99', 'P1 tickets; the p99 latency', { 'id P1': true, 'id p99': true }],
  ])('%j in %j', (claim, doc, expected) => {
    expect(check(claim, doc)).toEqual(expected)
  })

  it('a bare number in a table states the amount or duration its column header names', () => {
    const table = '| Tier | Retention (days) | Overage (USD per GB) |\n|---|---|---|\n| Team | 90 | 0.25 |'
    expect(check('Team keeps traces for 90 days and pays USD 0.25 per GB.', table)).toEqual({
      'duration 90 days': true,
      'money USD 0.25': true,
    })
    // In prose, a bare number borrows no unit: "Tier 1" next to "2 hours" does not state "1 hour".
    expect(check('within 1 hour', 'Tier 1 answers; after 2 hours it escalates.')).toEqual({ 'duration 1 hour': false })
  })
})

describe('a year inside a date (false alarms on known-good multi-hop answers)', () => {
  it.each([
    ['1924', 'Harald Vinter (born 15 June 1924 in Tromsø)'],
    ['1965', 'Marta Kessel (born May 17, 1965 in Graz)'],
    ['1915', 'On 21 August 1915 the army invaded the islands.'],
    ['1887', 'founded on 1887-10-12 by a physician'],
  ])('a gold answer "%s" is stated by "%s"', (year, doc) => {
    expect(check(`In ${year}.`, doc)).toEqual({ [`number ${year}`]: true })
  })

  it('a year alone does not state a full date, and another year is not stated', () => {
    expect(check('On 15 June 1924.', 'He was born in 1924.')).toEqual({ 'date 15 June 1924': false })
    expect(check('In 1925.', 'born 15 June 1924')).toEqual({ 'number 1925': false })
  })
})
