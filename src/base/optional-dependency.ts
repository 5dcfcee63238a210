/**
 * Optional peer dependencies (the server's framework, `pg`, the MCP SDK),
 * checked when a command needs them, and only then: `import 'reagent-flow'`
 * never reaches here, so installing reagent-flow to record stays small. A
 * missing package is a one-line `UsageError` naming the `npm i -D` that fixes it.
 *
 * The modules that use these packages import them statically; callers
 * `requirePackages` first, then `import()` those modules.
 */
import { createRequire } from 'node:module'
import { ReagentError, UsageError } from '../errors/index.js'

/** A package as `import` names it, and the range `npm i` should install (the one we test). */
export interface OptionalPackage {
  name: string
  range: string
}

/** package.json's `peerDependencies`, the one place their ranges are written (read as package-version.ts reads the version). */
const PEER_RANGES = (createRequire(import.meta.url)('reagent-flow/package.json') as { peerDependencies: Record<string, string> }).peerDependencies

/**
 * The shortest caret range equal to `range`, as people type it: `^4.11.0` is
 * `^4.11`, `^2.0.0` is `^2`. A zero is dropped only where the range stays the
 * same (`^0.14.0` is `^0.14`, but `^0.0.3` and `^0.0.0` stay whole).
 */
function shortRange(range: string): string {
  const parts = /^\^(\d+)\.(\d+)\.0$/.exec(range)
  if (parts === null) return range
  const [, major, minor] = parts
  if (minor !== '0') return `^${major}.${minor}`
  return major === '0' ? range : `^${major}`
}

/** `name` at its peer range in package.json; a name that is not a peer there is a mistake in this file, said at load. */
function peer(name: string): OptionalPackage {
  const range = PEER_RANGES[name]
  if (range === undefined) throw new ReagentError(`${name} is not in the peerDependencies of reagent-flow's package.json: add it there first`)
  return { name, range: shortRange(range) }
}

export const SERVER_PACKAGES: readonly OptionalPackage[] = [peer('hono'), peer('@hono/node-server')]
export const POSTGRES_PACKAGES: readonly OptionalPackage[] = [peer('pg')]
export const MCP_PACKAGES: readonly OptionalPackage[] = [peer('@modelcontextprotocol/sdk')]
/** The ledger server's Prometheus metrics (`reagent-flow serve`). */
export const METRICS_PACKAGES: readonly OptionalPackage[] = [peer('prom-client')]

function isNotFound(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code
  return code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND' || code === 'ERR_PACKAGE_PATH_NOT_EXPORTED'
}

/** The entry module of a package that has no root export (the MCP SDK exports subpaths only). */
const PROBE: Readonly<Record<string, string>> = { '@modelcontextprotocol/sdk': '@modelcontextprotocol/sdk/types.js' }

/** `a`, `a and b`, `a, b and c`. */
function listOf(names: readonly string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names.at(-1)}`
}

/**
 * Throws `UsageError` when one of `packages` cannot be imported, naming what
 * is missing and the one `npm i` that installs all of `packages` at the
 * ranges we test (as the docs install them, beside reagent-flow: `-D`):
 * "the trace viewer needs hono and @hono/node-server, optional peer
 * dependencies of reagent-flow that are not installed: npm i -D hono@^4.11 @hono/node-server@^2".
 */
export async function requirePackages(feature: string, packages: readonly OptionalPackage[]): Promise<void> {
  const missing: string[] = []
  for (const pkg of packages) {
    try {
      await import(PROBE[pkg.name] ?? pkg.name)
    } catch (error) {
      if (!isNotFound(error)) throw error
      missing.push(pkg.name)
    }
  }
  if (missing.length === 0) return
  const what = missing.length === 1 ? 'an optional peer dependency of reagent-flow that is' : 'optional peer dependencies of reagent-flow that are'
  throw new UsageError(`${feature} needs ${listOf(missing)}, ${what} not installed: ${installCommand(packages)}`)
}

/** The `npm i` that installs `packages` at the ranges we test. */
export function installCommand(packages: readonly OptionalPackage[]): string {
  return `npm i -D ${packageSpecs(packages)}`
}

/** `name@range` of each of `packages`, space-separated, as `npm i` takes them. */
export function packageSpecs(packages: readonly OptionalPackage[]): string {
  return packages.map((pkg) => `${pkg.name}@${pkg.range}`).join(' ')
}
