/**
 * The server's retention (`serve --retention 90d`, decision 084): run.prune
 * on each project the server serves (its own org and namespace, and each of
 * its token file), a minute after start, then every 24 hours. One prune at a
 * time: the next is scheduled only once the last has finished. Each project's
 * outcome is a line of the log; a failure is logged and the schedule goes on.
 * `stop()` (the server's shutdown) cancels what is scheduled and waits for a
 * prune in flight, so the store is closed after it.
 */
import type { Caller } from '../server/caller.js'
import type { ServerLog } from '../server/server-log.js'
import type { RunPruneResult } from './output-schemas.js'
import type { LedgerService } from './service.js'

export interface RetentionSettings {
  /** Runs started more than this long ago are removed: '90d', '12w', '36h'. */
  olderThan: string
  keepFailed: boolean
  /** The newest runs kept per agent (at least 1). */
  keepLast: number
}

export interface RetentionOptions extends RetentionSettings {
  service: LedgerService
  /** Every project the server serves. */
  projects: ReadonlyArray<{ org: string; namespace: string }>
  log: Pick<ServerLog, 'event'>
  /** Before the first prune. Default: 60 s, so a server starts (and answers /readyz) before it prunes. */
  firstDelayMs?: number
  /** Between the starts of two prunes. Default: 24 h. */
  intervalMs?: number
}

export interface Retention {
  /** Cancels the next prune and resolves once a prune in flight has finished. */
  stop(): Promise<void>
}

const DAY_MS = 24 * 60 * 60 * 1000

/** The projects of `caller`s, each once, in the order first met. */
export function projectsOf(callers: Iterable<Pick<Caller, 'org' | 'namespace'>>): Array<{ org: string; namespace: string }> {
  const seen = new Map<string, { org: string; namespace: string }>()
  for (const { org, namespace } of callers) seen.set(JSON.stringify([org, namespace]), { org, namespace })
  return [...seen.values()]
}

/** A span as the log says it: `24 h`, `90 s`, `10 ms`. */
function spanOf(ms: number): string {
  if (ms >= 3_600_000) return `${Math.round(ms / 360_000) / 10} h`
  return ms >= 1000 ? `${Math.round(ms / 100) / 10} s` : `${ms} ms`
}

function summary(out: RunPruneResult): string {
  const { active, last, baseline, failed } = out.kept
  return `removed ${out.removed} run(s) started before ${out.before}; kept ${active} active, ${last} newest of their agent, ${baseline} of a branch's latest results, ${failed} failed`
}

export function startRetention(options: RetentionOptions): Retention {
  const { service, log } = options
  const intervalMs = options.intervalMs ?? DAY_MS
  let timer: NodeJS.Timeout | undefined
  let running: Promise<void> | undefined
  let stopped = false

  const pruneAll = async (): Promise<void> => {
    for (const project of options.projects) {
      if (stopped) return
      const caller: Caller = { ...project, bound: true, label: 'retention', role: 'admin' }
      const where = `org ${project.org}, namespace ${project.namespace}`
      try {
        const out = (await service.call('run.prune', caller, {
          older_than: options.olderThan,
          keep_failed: options.keepFailed,
          keep_last: options.keepLast,
        })) as RunPruneResult
        log.event('info', 'retention', `retention (${where}): ${summary(out)}`, {
          org: project.org,
          namespace: project.namespace,
          removed: out.removed,
          before: out.before,
          kept_active: out.kept.active,
          kept_last: out.kept.last,
          kept_baseline: out.kept.baseline,
          kept_failed: out.kept.failed,
          partitions_dropped: out.partitions_dropped,
        })
      } catch (error) {
        log.event('error', 'retention_failed', `retention (${where}) failed, tried again in ${spanOf(intervalMs)}: ${(error as Error).message}`, {
          org: project.org,
          namespace: project.namespace,
        })
      }
    }
  }

  const schedule = (delayMs: number): void => {
    if (stopped) return
    timer = setTimeout(() => {
      const started = Date.now()
      running = pruneAll().finally(() => {
        running = undefined
        schedule(Math.max(0, intervalMs - (Date.now() - started)))
      })
    }, delayMs)
    // A schedule alone does not keep the process alive.
    timer.unref()
  }

  schedule(options.firstDelayMs ?? 60_000)
  return {
    async stop() {
      stopped = true
      clearTimeout(timer)
      await running
    },
  }
}
