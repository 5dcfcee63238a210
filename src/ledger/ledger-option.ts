/**
 * The `ledger` option of a session, and REAGENT_LEDGER_URL /
 * REAGENT_LEDGER_TOKEN: which ledger a session reports to, if any. Read as
 * the session opens; the reporter itself (session-reporter.ts: its HTTP
 * client, gzip, git) is loaded only when there is a ledger to report to.
 */
import { warn } from '../warnings/warnings.js'

export const LEDGER_URL_ENV = 'REAGENT_LEDGER_URL'
export const LEDGER_TOKEN_ENV = 'REAGENT_LEDGER_TOKEN'

export interface LedgerReportOptions {
  /** The ledger's URL, as `reagent-flow serve` prints it. @example 'http://127.0.0.1:4319' */
  url: string
  /** A bearer token of the server's token file. Default: `REAGENT_LEDGER_TOKEN`. */
  token?: string
  /** Give up on a call after this long (trace.put: 6 times as long). Default: 5,000 ms. */
  timeoutMs?: number
}

/** `session()`'s `ledger` option: a URL, the URL with a token, or `false` (not even `REAGENT_LEDGER_URL`). */
export type LedgerOption = string | LedgerReportOptions | false

const EXAMPLE = "'http://127.0.0.1:4319', { url, token }, or false"

function isHttpUrl(value: unknown): value is string {
  if (typeof value !== 'string') return false
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol)
  } catch {
    return false
  }
}

/** The ledger a session reports to, if any. A bad `ledger` option is a TypeError; a bad REAGENT_LEDGER_URL a warning. */
export function resolveLedger(option: LedgerOption | undefined): LedgerReportOptions | undefined {
  if (option === false) return undefined
  const token = process.env[LEDGER_TOKEN_ENV] || undefined
  if (option === undefined) {
    const url = process.env[LEDGER_URL_ENV]
    if (url === undefined || url === '') return undefined
    if (isHttpUrl(url)) return { url, ...(token === undefined ? {} : { token }) }
    warnLedgerOnce(`env:${url}`, `${LEDGER_URL_ENV}=${JSON.stringify(url)} is not an http(s) URL; runs are not reported to a ledger.`)
    return undefined
  }
  const given = typeof option === 'string' ? { url: option } : option
  if (given === null || typeof given !== 'object' || !isHttpUrl(given.url)) {
    throw new TypeError(`session() option "ledger" must be ${EXAMPLE}; got ${JSON.stringify(option)}.`)
  }
  return { ...given, ...(given.token === undefined && token !== undefined ? { token } : {}) }
}

const warned = new Set<string>()

/** One REAGENT_LEDGER warning per `key` in a process. */
export function warnLedgerOnce(key: string, message: string): void {
  if (warned.has(key)) return
  warned.add(key)
  warn('REAGENT_LEDGER', message)
}
