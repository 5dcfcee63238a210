/**
 * The token file (`serve --token-file`): each bearer token maps to an org, a
 * namespace (its project: it never sees another's runs), a role (read,
 * write or admin; write when left out, decision 085), and optionally an
 * agent and a session_id. Tokens may be written
 * as they are (`token`) or as their SHA-256 (`sha256`), so the file need not
 * hold a secret. A presented token is hashed and compared with every entry
 * in constant time; tokens are never logged (entries have a `name` for that).
 *
 *   { "tokens": [
 *       { "name": "ci", "token": "…32+ random characters…", "org": "acme", "namespace": "ci" },
       { "name": "ops", "sha256": "2c26b4…", "org": "acme", "namespace": "ci", "role": "admin" },
 *       { "name": "refund-bot", "sha256": "9f86d0…", "org": "acme", "namespace": "prod",
 *         "agent": "refund-agent", "session_id": "conv-42" } ] }
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import { UsageError } from '../errors/index.js'
import { readTextOrNull } from '../storage/index.js'
import { compileJsonSchema, toJsonPath } from '../trace/validate.js'
import { type Caller, ROLES, type Role, type TokenRegistry } from '../server/caller.js'

/** Shorter tokens can be guessed: `openssl rand -hex 32` makes a good one. */
export const MIN_TOKEN_LENGTH = 16

const identity = { type: 'string', minLength: 1, maxLength: 256 } as const
const TOKEN_FILE_SCHEMA = {
  type: 'object',
  required: ['tokens'],
  additionalProperties: false,
  properties: {
    tokens: {
      type: 'array',
      items: {
        type: 'object',
        required: ['org', 'namespace'],
        oneOf: [{ required: ['token'] }, { required: ['sha256'] }],
        additionalProperties: false,
        properties: {
          name: { type: 'string' },
          token: { type: 'string', minLength: MIN_TOKEN_LENGTH },
          sha256: { type: 'string', pattern: '^[0-9a-fA-F]{64}$' },
          org: identity,
          namespace: identity,
          agent: identity,
          session_id: identity,
          role: { enum: [...ROLES] },
        },
      },
    },
  },
} as const

interface TokenEntry {
  hash: Buffer
  caller: Caller
}

const sha256 = (text: string): Buffer => createHash('sha256').update(text, 'utf8').digest()

/** Reads and checks the token file; throws `UsageError` naming the file, the entry and the rule. */
export function readTokenFile(file: string): TokenRegistry {
  const text = readTextOrNull(file)
  if (text === null) throw new UsageError(`--token-file ${file}: no such file`)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw new UsageError(`--token-file ${file}: not JSON (${(error as Error).message})`)
  }
  const validate = compileJsonSchema(TOKEN_FILE_SCHEMA)
  if (!validate(value)) {
    const first = validate.errors![0]!
    const where = toJsonPath(first.instancePath) || 'the top level'
    const hint =
      first.keyword === 'minLength' && first.instancePath.endsWith('/token')
        ? ` (tokens need ${MIN_TOKEN_LENGTH}+ characters: openssl rand -hex 32)`
        : first.keyword === 'enum' && first.instancePath.endsWith('/role')
          ? ` (a role is "read", "write" or "admin")`
          : ''
    throw new UsageError(
      `--token-file ${file}: at ${where}: ${first.message ?? first.keyword} (rule: ${first.keyword})${hint}. ` +
        'Each entry: { "name", "token" or "sha256", "org", "namespace", "role"? (read, write or admin; default write), "agent"?, "session_id"? }',
    )
  }
  const entries: TokenEntry[] = (value as { tokens: Array<Record<string, string>> }).tokens.map((entry, index) => ({
    hash: entry.token === undefined ? Buffer.from(entry.sha256!, 'hex') : sha256(entry.token),
    caller: {
      org: entry.org!,
      namespace: entry.namespace!,
      ...(entry.agent === undefined ? {} : { agent: entry.agent }),
      ...(entry.session_id === undefined ? {} : { session_id: entry.session_id }),
      bound: true,
      label: entry.name ?? `token #${index + 1}`,
      role: (entry.role as Role | undefined) ?? 'write',
    },
  }))
  return tokenRegistry(entries)
}

function tokenRegistry(entries: readonly TokenEntry[]): TokenRegistry {
  return {
    size: entries.length,
    callers: () => entries.map((entry) => entry.caller),
    lookup(token) {
      const presented = sha256(token)
      let found: Caller | undefined
      // Every entry is compared, matched or not, so the time taken says nothing about which one (or whether one) matched.
      for (const entry of entries) {
        if (timingSafeEqual(entry.hash, presented) && found === undefined) found = entry.caller
      }
      return found
    },
  }
}
