/**
 * diff-package.ts for the viewer's page: in a browser there is no `require`,
 * and the page's bundle holds what it uses of `diff` anyway. The page's build
 * (scripts/bundle.ts) and its type check (`moduleSuffixes` in
 * src/viewer/client/tsconfig.json) take this file in place of that one.
 */
import * as Diff from 'diff'

export function diffPackage(): typeof Diff {
  return Diff
}
