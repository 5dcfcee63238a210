/**
 * This package as `npm i` puts it in a project: package.json and dist/
 * copied (not linked) into `<dir>/node_modules/reagent-flow`, so vitest sees
 * it under node_modules and loads it with Node as it does for users (a linked
 * checkout resolves to its real path outside node_modules, and vitest then
 * transforms every file of it as the project's own code). Its dependencies and
 * `packages` (vitest, an SDK) are linked from this checkout's node_modules.
 */
import { cpSync, mkdirSync, readFileSync, symlinkSync } from 'node:fs'
import { dirname, join } from 'node:path'

const REPO = join(import.meta.dirname, '../..')

export function installPackage(dir: string, packages: readonly string[]): void {
  const target = join(dir, 'node_modules', 'reagent-flow')
  mkdirSync(target, { recursive: true })
  cpSync(join(REPO, 'package.json'), join(target, 'package.json'))
  cpSync(join(REPO, 'dist'), join(target, 'dist'), { recursive: true })
  const { dependencies } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { dependencies: Record<string, string> }
  for (const name of [...Object.keys(dependencies), ...packages]) {
    const link = join(dir, 'node_modules', name)
    mkdirSync(dirname(link), { recursive: true })
    symlinkSync(join(REPO, 'node_modules', name), link, 'dir')
  }
}
