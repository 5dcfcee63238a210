/**
 * Who is calling the server, in the server's own terms: the access rules
 * (access.ts) find the caller of a request, and the route groups read it from
 * `c.get('caller')`. The ledger fills these in (its identity rules, its token
 * file); the server only needs their shape.
 */

/** What a caller may do: read (look), write (record runs and results), admin (also prune). */
export const ROLES = ['read', 'write', 'admin'] as const
export type Role = (typeof ROLES)[number]

/** The caller of a request: a token's entry, or the single user of a server without tokens. */
export interface Caller {
  org: string
  namespace: string
  /** A token narrowed to one agent. */
  agent?: string
  /** A token narrowed to one session (conversation). */
  session_id?: string
  /** True for a token: its org and namespace are the only ones it may use. */
  bound: boolean
  /** How the caller is named in logs: the token's name, never the token. */
  label: string
  /** The token's role; the single user of a server without tokens is admin. */
  role: Role
}

/** The entries of a token file, by the bearer token a request presents. */
export interface TokenRegistry {
  /** The caller a bearer token stands for, or undefined when no entry holds it. */
  lookup(token: string): Caller | undefined
  readonly size: number
  /** Every entry's caller, in the file's order (the projects the server serves, for its retention). */
  callers(): readonly Caller[]
}
