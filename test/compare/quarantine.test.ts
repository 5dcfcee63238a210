import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { QUARANTINE_FILE, compareTests, loadQuarantine, parseQuarantine, splitQuarantined } from '../../src/compare/index.js'
import { isQuarantineFileError } from '../../src/errors/index.js'
import { tempDir } from '../helpers/temp-dir.js'
import { seededRuns } from './seeded-agent.js'

const PATH = '.reagent/quarantine.json'
const ENTRY = { test: 'test/search.test.ts > search agent > finds a flight', reason: 'the flight sandbox times out under load (#123)', date: '2026-12-01' }
const SHAPE =
  'Each quarantined test is { "test": "<file> > <full name>", "reason": "why it is kept out of the gate", "date": "YYYY-MM-DD" } in the file\'s "tests" array; fix or remove the entry.'

/** JSON.parse's own words, which differ between Node versions. */
function jsonProblem(text: string): string {
  try {
    JSON.parse(text)
  } catch (error) {
    return (error as Error).message
  }
  return 'parsed'
}

function refusal(text: string): string {
  try {
    parseQuarantine(text, PATH)
  } catch (error) {
    expect(isQuarantineFileError(error)).toBe(true)
    return (error as Error).message
  }
  throw new Error('the file was accepted')
}

describe('the quarantine file', () => {
  it('lists tests with a reason and a date', () => {
    expect(parseQuarantine(JSON.stringify({ tests: [ENTRY] }), PATH)).toEqual([ENTRY])
  })

  it('is read from .reagent/quarantine.json; no file is no quarantine', () => {
    const dir = tempDir()
    expect(loadQuarantine(join(dir, QUARANTINE_FILE))).toEqual([])
    mkdirSync(join(dir, '.reagent'))
    writeFileSync(join(dir, QUARANTINE_FILE), JSON.stringify({ tests: [ENTRY] }, null, 2))
    expect(loadQuarantine(join(dir, QUARANTINE_FILE))).toEqual([ENTRY])
  })

  it.each([
    ['text that is not JSON', '{ tests: [', `${PATH}: is not JSON (${jsonProblem('{ tests: [')}). ${SHAPE}`],
    ['an array at the top level', '[]', `${PATH}: has no "tests" array at the top level. ${SHAPE}`],
    ['an entry that is a string', JSON.stringify({ tests: [ENTRY, 'flaky test'] }), `${PATH}, entry 1 of "tests": is not an object. ${SHAPE}`],
    [
      'an entry without a reason',
      JSON.stringify({ tests: [{ test: ENTRY.test, date: ENTRY.date }] }),
      `${PATH}, entry 0 of "tests": needs "reason" as a non-empty string. ${SHAPE}`,
    ],
    ['an empty test name', JSON.stringify({ tests: [{ ...ENTRY, test: ' ' }] }), `${PATH}, entry 0 of "tests": needs "test" as a non-empty string. ${SHAPE}`],
    [
      'a date not written YYYY-MM-DD',
      JSON.stringify({ tests: [{ ...ENTRY, date: '1/12/2026' }] }),
      `${PATH}, entry 0 of "tests": has "date": "1/12/2026", which is not a day written YYYY-MM-DD. ${SHAPE}`,
    ],
    [
      'a day that does not exist',
      JSON.stringify({ tests: [{ ...ENTRY, date: '2026-02-30' }] }),
      `${PATH}, entry 0 of "tests": has "date": "2026-02-30", which is not a day written YYYY-MM-DD. ${SHAPE}`,
    ],
    ['a misspelt key', JSON.stringify({ tests: [{ ...ENTRY, resaon: 'x' }] }), `${PATH}, entry 0 of "tests": has unknown keys "resaon". ${SHAPE}`],
    [
      'the same test twice',
      JSON.stringify({ tests: [ENTRY, { ...ENTRY, reason: 'again' }] }),
      `${PATH}, entry 1 of "tests": quarantines "${ENTRY.test}" again (entry 0 already does). ${SHAPE}`,
    ],
  ])('refuses %s, naming the file, the entry and what to write', (_case, text, message) => {
    expect(refusal(text)).toBe(message)
  })

  it('keeps quarantined tests out of the gate, and names entries that match no test compared', () => {
    const runs = seededRuns(0.9, 10, 3)
    const { tests } = compareTests(
      [
        { id: ENTRY.test, runs },
        { id: 'test/refund.test.ts > refund agent > refunds order 42', runs },
      ],
      [
        { id: ENTRY.test, runs },
        { id: 'test/refund.test.ts > refund agent > refunds order 42', runs },
      ],
    )
    const gone = { test: 'test/old.test.ts > renamed', reason: 'flaky', date: '2026-11-02' }
    const split = splitQuarantined(tests, [ENTRY, gone])
    expect(split.gated.map((test) => test.id)).toEqual(['test/refund.test.ts > refund agent > refunds order 42'])
    expect(split.quarantined.map(({ test, entry }) => [test.id, entry])).toEqual([[ENTRY.test, ENTRY]])
    expect(split.unmatched).toEqual([gone])
  })
})
