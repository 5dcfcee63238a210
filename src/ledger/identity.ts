/**
 * Who is calling, and what they may see. A single-user server (no token
 * file) answers every call as its own org and namespace (`--org`,
 * `--namespace`), which fill a call that leaves them out. A token binds its
 * org and namespace, and its agent and session_id when it has them: a call
 * naming anything else is a 403, and runs outside the scope are invisible
 * (as if they did not exist), so a namespace never sees another's runs.
 */
import type { Caller } from '../server/caller.js'
import { LedgerRequestError } from './errors.js'

export const DEFAULT_ORG = 'local'
export const DEFAULT_NAMESPACE = 'default'

/** The caller of a server without tokens. */
export function singleUser(org: string = DEFAULT_ORG, namespace: string = DEFAULT_NAMESPACE): Caller {
  return { org, namespace, bound: false, label: 'local', role: 'admin' }
}

/** The runs a call may see: its namespace, and its token's agent and session when narrowed. */
export interface Scope {
  org: string
  namespace: string
  agent?: string | undefined
  session_id?: string | undefined
}

/** `'' | '*' | '-'` in a filter: any. */
export function isAny(value: unknown): boolean {
  return value === undefined || value === '' || value === '*' || value === '-'
}

function refuse(operation: string, field: string, given: unknown, allowed: string, caller: Caller): never {
  throw new LedgerRequestError(
    'forbidden',
    `${operation}: ${field} ${JSON.stringify(given)} is outside this token's scope (${caller.label} may use ${field} ${JSON.stringify(allowed)} only)`,
    { field },
  )
}

/**
 * How an operation takes the token's agent or session_id: `value` (the run's
 * own: filled when absent or '-'), `filter` (filled when absent or any:
 * '', '*', '-') or `check` (only checked when given, as run.grade's
 * session_id, which would otherwise widen the target).
 */
export type IdentityUse = 'value' | 'filter' | 'check'

/**
 * `body` with `org` and `namespace` filled from the caller (and checked
 * against its token), and the token's agent and session_id filled or checked
 * as `fields` says. Returns a copy.
 */
export function fillIdentity(
  operation: string,
  body: Record<string, unknown>,
  caller: Caller,
  fields: { agent?: IdentityUse; session_id?: IdentityUse } = {},
): Record<string, unknown> {
  const out = { ...body }
  for (const key of ['org', 'namespace'] as const) {
    if (out[key] === undefined) out[key] = caller[key]
    else if (caller.bound && out[key] !== caller[key]) refuse(operation, key, out[key], caller[key], caller)
  }
  for (const key of ['agent', 'session_id'] as const) {
    const kind = fields[key]
    const narrowed = caller[key]
    if (kind === undefined || narrowed === undefined) continue
    const given = out[key]
    // run.begin's session_id defaults to '-' (none): under a session token, absent or '-' is the token's session.
    const unset = kind === 'value' ? given === undefined || given === '-' : isAny(given)
    if (!unset && given !== narrowed) refuse(operation, key, given, narrowed, caller)
    if (unset && kind !== 'check') out[key] = narrowed
  }
  return out
}

/** The runs the caller may see in the namespace the call names. */
export function scopeOf(caller: Caller, body: { org: string; namespace: string }): Scope {
  return { org: body.org, namespace: body.namespace, agent: caller.agent, session_id: caller.session_id }
}

/** Whether a run is inside the scope: its namespace, and the token's agent and session. */
export function isVisible(scope: Scope, run: { org: string; namespace: string; agent: string; session_id: string }): boolean {
  return (
    run.org === scope.org &&
    run.namespace === scope.namespace &&
    (scope.agent === undefined || run.agent === scope.agent) &&
    (scope.session_id === undefined || run.session_id === scope.session_id)
  )
}
