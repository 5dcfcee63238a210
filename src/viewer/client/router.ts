/**
 * The page's addresses, in the hash so they work from a server and from a
 * file alike, and every view can be linked to:
 *
 *   #/runs?q=refund&status=failed&failing=1&sort=cost&order=desc
 *   #/run/<file>            #/run/<file>/turn/<n>     (deep link to a turn)
 *   #/diff?actual=<file>[&expected=<file>][&mode=..&args=..&ignore=..]
 *   #/compare               (the comparison with a baseline, when there is one)
 *   #/trends?bucket=day&since=30d   (the team viewer's Trends page)
 *
 * `<file>` is the trace file relative to the trace directory, URI-encoded.
 */

export type Route =
  | { page: 'runs'; params: URLSearchParams }
  | { page: 'run'; id: string; turn: number | null }
  | { page: 'diff'; params: URLSearchParams }
  | { page: 'compare' }
  | { page: 'trends'; params: URLSearchParams }

export function parseRoute(hash: string): Route {
  const text = hash.replace(/^#/, '')
  const [path = '', search = ''] = text.split('?', 2) as [string, string?]
  const parts = path.split('/').filter((part) => part !== '')
  const params = new URLSearchParams(search)
  try {
    if (parts[0] === 'run' && parts[1] !== undefined) {
      const turn = parts[2] === 'turn' && parts[3] !== undefined && /^\d+$/.test(parts[3]) ? Number(parts[3]) : null
      return { page: 'run', id: decodeURIComponent(parts[1]), turn }
    }
  } catch {
    // A malformed escape: the Runs page.
  }
  if (parts[0] === 'diff') return { page: 'diff', params }
  if (parts[0] === 'compare') return { page: 'compare' }
  if (parts[0] === 'trends') return { page: 'trends', params }
  return { page: 'runs', params: parts[0] === 'runs' ? params : new URLSearchParams() }
}

function withParams(path: string, params: Readonly<Record<string, string | undefined>> | URLSearchParams): string {
  const search =
    params instanceof URLSearchParams
      ? params
      : new URLSearchParams(Object.entries(params).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''))
  const text = search.toString()
  return text === '' ? path : `${path}?${text}`
}

export const runsHref = (params: Readonly<Record<string, string | undefined>> | URLSearchParams = {}): string => withParams('#/runs', params)

export const runHref = (id: string, turn?: number | null): string =>
  `#/run/${encodeURIComponent(id)}${turn === undefined || turn === null ? '' : `/turn/${turn}`}`

export const compareHref = (): string => '#/compare'

export const trendsHref = (params: Readonly<Record<string, string | undefined>> | URLSearchParams = {}): string => withParams('#/trends', params)

export const diffHref = (params: Readonly<Record<string, string | undefined>> | URLSearchParams): string => withParams('#/diff', params)

/** Changes the address without a new history entry (filters, the selected turn). */
export function replaceRoute(href: string): void {
  if (location.hash === href) return
  history.replaceState(history.state, '', href)
}
