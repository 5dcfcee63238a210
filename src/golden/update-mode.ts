/**
 * The update mode of golden baselines, worked out once, as vitest works out
 * its snapshot update state: every later "write or not" decision reads it.
 */
/**
 * - `all`: write every golden (new ones, and existing ones whose content changed);
 * - `new`: write missing goldens only, compare the others (the local default);
 * - `none`: never write; a missing golden fails (the default when `CI` is set).
 */
export type UpdateMode = 'all' | 'new' | 'none'
export const UPDATE_MODES: readonly UpdateMode[] = ['all', 'new', 'none']

export interface UpdateModeSources {
  /** The test runner's own update state (vitest's `-u` gives `'all'`); only `'all'` (or `true`) counts as an explicit request. */
  vitestUpdate?: UpdateMode | boolean | undefined
  /** Where `REAGENT_UPDATE` and `CI` are read. Default: `process.env`. */
  env?: Readonly<Record<string, string | undefined>>
}

export function isCi(env: Readonly<Record<string, string | undefined>>): boolean {
  const ci = env.CI?.trim().toLowerCase()
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0'
}

/**
 * The update mode, in order of precedence: the test runner's explicit update
 * flag (`vitest -u`), then `REAGENT_UPDATE=all|new|none` (empty counts as
 * unset; anything else is a TypeError), then `CI` (set and not `false`/`0`:
 * `none`), else `new`.
 */
export function resolveUpdateMode({ vitestUpdate, env = process.env }: UpdateModeSources = {}): UpdateMode {
  if (vitestUpdate === 'all' || vitestUpdate === true) return 'all'
  const requested = env.REAGENT_UPDATE
  if (requested !== undefined && requested !== '') {
    if ((UPDATE_MODES as readonly string[]).includes(requested)) return requested as UpdateMode
    throw new TypeError(
      `REAGENT_UPDATE=${JSON.stringify(requested)} is not an update mode. Use one of: all (rewrite goldens), new (write missing ones), none (never write).`,
    )
  }
  return isCi(env) ? 'none' : 'new'
}
