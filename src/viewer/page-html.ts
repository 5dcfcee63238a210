/**
 * The only HTML reagent-flow writes as text: the viewer's page shell and the
 * static report's file. Everything from a trace reaches the page as JSON and
 * is put in the document with DOM text nodes (client/dom.ts); the few values
 * written here (a title, the directory) go through `escapeHtml`, and the
 * report's embedded JSON through `embedJson`, so no trace content can end
 * the script element that holds it.
 */
import { createHash } from 'node:crypto'

/** Text as HTML text or a double-quoted attribute value. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)
}

/**
 * JSON for a `<script type="application/json">` element: `<`, `>` and `&`
 * (and the two line separators JavaScript once refused) written as `\u`
 * escapes, which JSON.parse reads back as the same characters, so
 * `</script>` or `<!--` inside a string cannot end or change the element.
 */
export function embedJson(value: unknown): string {
  return JSON.stringify(value).replace(/[<>&\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** A script for an inline `<script>` element: `</script` and `<!--` cannot occur in it (esbuild writes them escaped; this makes sure). */
export function inlineScript(script: string): string {
  return script.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--')
}

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`

/**
 * The viewer's page: the bundle does the rest, over the JSON API (`data-source="server"`; `data-comparison` when `/api/comparison` has one).
 * `bundle: 'ledger'`: the team viewer's page and bundle (`data-source="ledger"`, and `data-ledger`: whose runs it shows).
 */
export function viewerPage(
  title: string,
  { comparison = false, bundle = 'viewer', ledger = '' }: { comparison?: boolean; bundle?: 'viewer' | 'ledger'; ledger?: string } = {},
): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    '<link rel="icon" href="data:,">',
    `<link rel="stylesheet" href="./assets/${bundle}.css">`,
    `<script defer src="./assets/${bundle}.js"></script>`,
    '</head>',
    '<body>',
    `<div id="app" data-source="${bundle === 'ledger' ? 'ledger' : 'server'}"${comparison ? ' data-comparison="1"' : ''}${bundle === 'ledger' ? ` data-ledger="${escapeHtml(ledger)}"` : ''}><p class="loading">Loading runs…</p></div>`,
    '<noscript>The reagent-flow viewer needs JavaScript.</noscript>',
    '</body>',
    '</html>',
    '',
  ].join('\n')
}

/** What the viewer's server answers every page and API response with: nothing but its own scripts and styles, no frames, no referrer. */
export const VIEWER_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
}

export interface ReportPageParts {
  title: string
  styles: string
  script: string
  /** The report's data, embedded as JSON. */
  data: unknown
}

/**
 * One self-contained file: styles, data and script inline, and a Content
 * Security Policy that lets only that script and those styles run (by
 * their hashes) and reaches no network.
 */
export function reportPage({ title, styles, script, data }: ReportPageParts): string {
  const safeScript = inlineScript(script)
  const safeStyles = styles.replace(/<\/(style)/gi, '<\\/$1')
  const policy = `default-src 'none'; script-src ${sha256(safeScript)}; style-src ${sha256(safeStyles)}; img-src data:; base-uri 'none'; form-action 'none'`
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head>',
    '<meta charset="utf-8">',
    `<meta http-equiv="Content-Security-Policy" content="${escapeHtml(policy)}">`,
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    '<link rel="icon" href="data:,">',
    `<style>${safeStyles}</style>`,
    '</head>',
    '<body>',
    '<div id="app" data-source="embedded"><p class="loading">Loading the report…</p></div>',
    `<script type="application/json" id="reagent-data">${embedJson(data)}</script>`,
    `<script>${safeScript}</script>`,
    '</body>',
    '</html>',
    '',
  ].join('\n')
}
