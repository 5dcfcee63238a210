/**
 * What each role may call (decision 085): `read` looks (the runs, their
 * traces, results and trends, the viewer), `write` also records (what a
 * session reporter and CI send), `admin` also removes (run.prune). A call
 * above the caller's role is a 403 naming the operation, the token and its
 * role, before its body is looked at.
 */
import type { Caller, Role } from '../server/caller.js'
import { LedgerRequestError } from './errors.js'
import type { OperationName } from './input-schemas.js'

export const OPERATION_ROLES: Record<OperationName, Role> = {
  'run.get': 'read',
  'run.list': 'read',
  'run.stats': 'read',
  'trace.get': 'read',
  'results.list': 'read',
  'run.begin': 'write',
  'run.complete': 'write',
  'run.grade': 'write',
  'trace.put': 'write',
  'results.put': 'write',
  'run.prune': 'admin',
}

const RANK: Record<Role, number> = { read: 0, write: 1, admin: 2 }

/** Throws `forbidden` when `caller`'s role is below what `operation` needs. */
export function requireRole(operation: OperationName, caller: Caller): void {
  const needed = OPERATION_ROLES[operation]
  if (RANK[caller.role] >= RANK[needed]) return
  throw new LedgerRequestError(
    'forbidden',
    `${operation}: needs the role ${needed}, and the token "${caller.label}" has the role ${caller.role}; use a token whose entry in the token file has "role": "${needed}"`,
  )
}
