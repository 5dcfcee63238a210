/**
 * Two names that meet on one file name (`'a: b'` and `'a; b'` both become
 * `a__b`, a name and its decomposed Unicode twin) must never share a file:
 * the first to write keeps the plain stem, and a name whose plain file holds
 * another name's trace takes the hashed stem (`a__b~1f2e3d4c`). A file says
 * whose it is by its own `name` (or `test_key`), so the choice is stable
 * from run to run, and readers find the same file the writer chose.
 */
import { fileIdentity, fileKeyOf, traceFilePath, type TraceIdentity, type TraceLocation } from './paths.js'
import { peekTraceFields, readTraceFieldsOrUndefined } from './trace-fields.js'

/** Whose trace the file at `path` holds, or undefined when there is none (or it is not a readable trace). */
function holderOf(path: string): string | undefined {
  const fields = readTraceFieldsOrUndefined(path)
  return fields === undefined ? undefined : identityOf(fields as TraceIdentity)
}

function identityOf(fields: TraceIdentity): string {
  return fileIdentity(fileKeyOf(fields))
}

/** True when fields read at a file's ends (unchecked) say the file holds `identity`'s trace. */
function sayTheyAre(fields: Record<string, unknown>, identity: string): boolean {
  return typeof fields.name === 'string' && identityOf(fields as unknown as TraceIdentity) === identity
}

/**
 * The file of the trace `identity` names: its plain path, unless that file
 * holds another name's trace, then the hashed one.
 */
export function resolveTraceFile(identity: TraceIdentity, location: TraceLocation = {}): string {
  const plain = traceFilePath(identity, location)
  const ours = identityOf(identity)
  // The common cases need no schema check (its first compile costs ~50 ms in a process): no file, or
  // one this name wrote before (valid or not, the plain path stays ours). Only another name's file is checked.
  const peeked = peekTraceFields(plain)
  if (peeked === null || (peeked !== undefined && sayTheyAre(peeked, ours))) return plain
  const holder = holderOf(plain)
  if (holder === undefined || holder === ours) return plain
  return traceFilePath(identity, { ...location, hashed: true })
}
