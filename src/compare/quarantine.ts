/**
 * The quarantine file: tests a team keeps out of the gate on purpose, each with why and since when,
 * so that a quarantine is a decision someone wrote down and can be reviewed, not a silent skip.
 *
 * ```json
 * { "tests": [{ "test": "test/refund.test.ts > refund agent > refunds order 42", "reason": "the sandbox times out (#123)", "date": "2026-12-01" }] }
 * ```
 */
import { QuarantineFileError } from '../errors/quarantine-file-error.js'
import { readTextOrNull } from '../storage/atomic-write.js'

/** Where the quarantine file is looked for, from the project's root: beside the goldens, committed with them. */
export const QUARANTINE_FILE = '.reagent/quarantine.json'

export interface QuarantineEntry {
  /** The test's id as compared: its file and full name. */
  test: string
  reason: string
  /** The day it was quarantined, `YYYY-MM-DD`. */
  date: string
}

/** The entries of the quarantine file at `path`; none when there is no file. Throws `QuarantineFileError` on a bad file. */
export function loadQuarantine(path: string = QUARANTINE_FILE): QuarantineEntry[] {
  const text = readTextOrNull(path)
  return text === null ? [] : parseQuarantine(text, path)
}

/** The entries of a quarantine file's text; `path` names the file in errors. */
export function parseQuarantine(text: string, path: string): QuarantineEntry[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (error) {
    throw new QuarantineFileError(path, `is not JSON (${(error as Error).message})`)
  }
  if (!isRecord(parsed) || !Array.isArray(parsed.tests)) throw new QuarantineFileError(path, 'has no "tests" array at the top level')
  const seen = new Map<string, number>()
  return parsed.tests.map((value: unknown, index: number) => {
    const entry = checkedEntry(value, path, index)
    const earlier = seen.get(entry.test)
    if (earlier !== undefined) throw new QuarantineFileError(path, `quarantines "${entry.test}" again (entry ${earlier} already does)`, index)
    seen.set(entry.test, index)
    return entry
  })
}

const KEYS = ['test', 'reason', 'date']

function checkedEntry(value: unknown, path: string, index: number): QuarantineEntry {
  if (!isRecord(value)) throw new QuarantineFileError(path, 'is not an object', index)
  const unknown = Object.keys(value).filter((key) => !KEYS.includes(key))
  if (unknown.length > 0) throw new QuarantineFileError(path, `has unknown keys ${unknown.map((key) => `"${key}"`).join(', ')}`, index)
  const test = textField(value, 'test', path, index)
  const reason = textField(value, 'reason', path, index)
  const date = textField(value, 'date', path, index)
  if (!isCalendarDate(date)) throw new QuarantineFileError(path, `has "date": "${date}", which is not a day written YYYY-MM-DD`, index)
  return { test, reason, date }
}

function textField(entry: Record<string, unknown>, key: string, path: string, index: number): string {
  const field = entry[key]
  if (typeof field !== 'string' || field.trim() === '') throw new QuarantineFileError(path, `needs "${key}" as a non-empty string`, index)
  return field
}

/** `YYYY-MM-DD` naming a day that exists (not 2026-02-30). */
function isCalendarDate(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false
  const day = new Date(`${text}T00:00:00Z`)
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === text
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** Compared tests split by the quarantine: those the gate judges, those kept out with their entry, and entries that matched no test. */
export interface QuarantineSplit<T extends { id: string }> {
  gated: T[]
  quarantined: Array<{ test: T; entry: QuarantineEntry }>
  /** Entries naming a test that was not compared: renamed or removed, so the entry can go. */
  unmatched: QuarantineEntry[]
}

export function splitQuarantined<T extends { id: string }>(tests: readonly T[], entries: readonly QuarantineEntry[]): QuarantineSplit<T> {
  const byTest = new Map(entries.map((entry) => [entry.test, entry]))
  const split: QuarantineSplit<T> = { gated: [], quarantined: [], unmatched: [] }
  for (const test of tests) {
    const entry = byTest.get(test.id)
    if (entry === undefined) split.gated.push(test)
    else split.quarantined.push({ test, entry })
  }
  const ids = new Set(tests.map((test) => test.id))
  split.unmatched = entries.filter((entry) => !ids.has(entry.test))
  return split
}
