/**
 * Who may use the server, for every route group mounted on it (the ledger,
 * MCP, the viewer). With a token file, a request needs `Authorization:
 * Bearer <token>` of one of its entries (401 otherwise) and acts as that
 * entry's caller. Without one, the server is a single user's and listens on
 * loopback only; it still refuses requests whose Host is not a loopback name
 * or whose Origin is another site's, so a web page the user opens cannot
 * reach it through the browser (DNS rebinding, cross-site POSTs).
 *
 * A browser cannot send a bearer header with a page it opens (the viewer),
 * so a GET may carry the token once as `?token=`: it is answered with a
 * redirect to the same address without it, and an HttpOnly, SameSite=Strict
 * cookie that later GETs of that browser present; the redirect goes to a path
 * of this server only, never to another site. Only GETs accept the
 * cookie: what changes a run (the ledger's POSTs) still needs the header.
 */
import type { MiddlewareHandler } from 'hono'
import type { Caller, TokenRegistry } from './caller.js'
import { errorResponse, type ServerEnv } from './route-group.js'

const LOOPBACK_NAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]', '::1'])

/** Whether `host` (an address to bind, or a Host header without its port) is loopback. */
export function isLoopback(host: string): boolean {
  return LOOPBACK_NAMES.has(host.toLowerCase()) || /^127(\.\d{1,3}){3}$/.test(host)
}

function hostName(hostHeader: string): string {
  // `[::1]:4319` -> `[::1]`; `localhost:4319` -> `localhost`
  return hostHeader.startsWith('[') ? hostHeader.slice(0, hostHeader.indexOf(']') + 1) : hostHeader.split(':')[0]!
}

/** The cookie a browser keeps its token in, after opening `/?token=<token>` once. */
export const TOKEN_COOKIE = 'reagent_token'

function cookieToken(header: string | undefined): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=')
    if (name === TOKEN_COOKIE) return decodeURIComponent(value.join('='))
  }
  return undefined
}

/** The address without its `token` parameter, and the cookie that carries the token from now on. */
function tokenRedirect(url: string, token: string): Response {
  const target = new URL(url)
  target.searchParams.delete('token')
  // A path of this server only: `//evil.example/x` (or `/\\evil.example`) would be read by the browser as another site.
  const path = `/${target.pathname.replace(/^[/\\]+/, '')}`
  const location = `${path}${target.search}${target.hash}`
  return new Response(null, {
    status: 303,
    headers: { location, 'set-cookie': `${TOKEN_COOKIE}=${encodeURIComponent(token)}; Path=/; HttpOnly; SameSite=Strict`, 'cache-control': 'no-store' },
  })
}

function refuse(status: 401 | 403, error: string, message: string): Response {
  const response = errorResponse(status, error, message)
  if (status === 401) response.headers.set('www-authenticate', 'Bearer')
  return response
}

export interface AccessOptions {
  /** Undefined: a single-user server on loopback. */
  tokens: TokenRegistry | undefined
  /** The caller of a single-user server. */
  owner: Caller
}

export function access({ tokens, owner }: AccessOptions): MiddlewareHandler<ServerEnv> {
  return async (c, next) => {
    if (tokens !== undefined) {
      const header = c.req.header('authorization')
      const isRead = c.req.method === 'GET' || c.req.method === 'HEAD'
      const inQuery = isRead && header === undefined ? c.req.query('token') : undefined
      const fromCookie = isRead && header === undefined && inQuery === undefined ? cookieToken(c.req.header('cookie')) : undefined
      const token = inQuery ?? fromCookie ?? /^Bearer\s+(\S+)\s*$/i.exec(header ?? '')?.[1]
      if (token === undefined) {
        return refuse(
          401,
          'unauthorized',
          'this server needs a bearer token: send the header "Authorization: Bearer <token>" with a token of its --token-file (a browser: open the page once with ?token=<token>)',
        )
      }
      const caller = tokens.lookup(token)
      if (caller === undefined) return refuse(401, 'unauthorized', "the bearer token is not one of this server's tokens (its --token-file)")
      if (inQuery !== undefined) return tokenRedirect(c.req.url, token)
      c.set('caller', caller)
      return next()
    }
    const host = c.req.header('host') ?? ''
    if (!isLoopback(hostName(host))) {
      return refuse(
        403,
        'forbidden',
        `this server has no token file, so it answers loopback names only (localhost, 127.0.0.1), not Host ${JSON.stringify(host)}`,
      )
    }
    const origin = c.req.header('origin')
    if (origin !== undefined) {
      let originHost = ''
      try {
        originHost = new URL(origin).hostname
      } catch {
        // An origin that is not a URL is not one of ours.
      }
      if (!isLoopback(originHost) && !isLoopback(`[${originHost}]`)) {
        return refuse(403, 'forbidden', `requests from web pages of other sites are refused (Origin ${JSON.stringify(origin)})`)
      }
    }
    c.set('caller', owner)
    return next()
  }
}
