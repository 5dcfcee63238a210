/**
 * `--store`: a directory (the default, the trace directory itself) or a
 * `postgres://` URL, opened. PostgreSQL's driver is an optional peer
 * dependency, loaded only here and only for a URL.
 */
import { POSTGRES_PACKAGES, requirePackages } from '../base/optional-dependency.js'
import { DirectoryStore } from './directory/directory-store.js'
import type { LedgerStore } from './store.js'

export interface StoreOptions {
  /** A directory, or `postgres://...` / `postgresql://...`. */
  store: string
  /** The org and namespace of the runs session() writes into a directory store. */
  org: string
  namespace: string
  /** Directory store: watch for runs other processes write. Default: true. */
  watch?: boolean
  /** Writes that may wait for a batch before the next is answered 503 (`serve --write-queue`). Default: DEFAULT_WRITE_QUEUE. */
  writeQueue?: number
}

export function isPostgresUrl(store: string): boolean {
  return /^postgres(ql)?:\/\//i.test(store)
}

export async function openStore(options: StoreOptions): Promise<LedgerStore> {
  if (!isPostgresUrl(options.store)) {
    return DirectoryStore.open({
      dir: options.store,
      org: options.org,
      namespace: options.namespace,
      ...(options.watch === undefined ? {} : { watch: options.watch }),
      ...(options.writeQueue === undefined ? {} : { writeQueue: options.writeQueue }),
    })
  }
  await requirePackages('a PostgreSQL store (--store postgres://...)', POSTGRES_PACKAGES)
  const { PostgresStore } = await import('./postgres/postgres-store.js')
  return PostgresStore.open({ url: options.store, ...(options.writeQueue === undefined ? {} : { writeQueue: options.writeQueue }) })
}
