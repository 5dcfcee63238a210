/**
 * `--agent <module>#<export>`: the agent a scaffolded test imports, and the
 * import specifier that reaches it from the test file (a path relative to
 * it, with the `.js` extension TypeScript's ESM resolution and vitest take
 * for a `.ts` file; a package name as it is).
 */
import { dirname, isAbsolute, relative, resolve, sep } from 'node:path'
import { UsageError } from '../../errors/index.js'

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/

export interface AgentImport {
  specifier: string
  exportName: string
}

/** `src/agent.ts` seen from `test/incidents/x.test.ts`: `../../src/agent.js`. */
function specifierFrom(testFile: string, module: string): string {
  const isPath = module.startsWith('.') || isAbsolute(module) || /\.[cm]?[jt]sx?$/.test(module)
  if (!isPath) return module
  let path = relative(dirname(resolve(testFile)), resolve(module))
    .split(sep)
    .join('/')
  if (!path.startsWith('.')) path = `./${path}`
  return path
    .replace(/\.ts$/, '.js')
    .replace(/\.mts$/, '.mjs')
    .replace(/\.cts$/, '.cjs')
    .replace(/\.tsx$/, '.js')
}

/** The agent of `--agent src/agent.ts#refundAgent`, imported from `testFile`. */
export function agentImport(option: string, testFile: string): AgentImport {
  const at = option.lastIndexOf('#')
  const module = at === -1 ? '' : option.slice(0, at)
  const exportName = at === -1 ? '' : option.slice(at + 1)
  if (module === '' || !IDENTIFIER.test(exportName)) {
    throw new UsageError(
      `--agent ${JSON.stringify(option)} does not name a module and its export; pass <module>#<export>, e.g. --agent src/agent.ts#refundAgent (or #default)`,
    )
  }
  return { specifier: specifierFrom(testFile, module), exportName }
}
