/**
 * What `resume()` resumes: the latest run of the same run file, session id
 * and user id that ended failed, cancelled or interrupted, read from its
 * kept journal (a SIGKILLed run's journal is recovered as interrupted by the
 * sweep first). A run that completed since is never resumed: the sweep
 * removes the journals a later completed run supersedes, and a completed
 * latest run means there is nothing to resume.
 */
import { dirname } from 'node:path'
import { readTraceFieldsOrUndefined, sweepDirectory, type JournalFile } from '../storage/index.js'
import { warn } from '../warnings/warnings.js'

export type ResumeSource = { found: JournalFile } | { found: undefined; why: string }

const warned = new Set<string>()

function scopeText(sessionId: string | null, userId: string | null): string {
  const parts = [sessionId === null ? '' : `session_id "${sessionId}"`, userId === null ? '' : `user_id "${userId}"`].filter((part) => part !== '')
  return parts.length === 0 ? '' : ` (${parts.join(', ')})`
}

/** The run to resume for `runPath` and (session id, user id), or why there is none. */
export function findResumable(name: string, runPath: string, sessionId: string | null, userId: string | null): ResumeSource {
  const { kept, openJournals } = sweepDirectory(dirname(runPath), runPath)
  const mine = (journal: JournalFile): boolean => (journal.trace.session_id ?? null) === sessionId && (journal.trace.user_id ?? null) === userId
  const latest = kept.filter(mine).sort((a, b) => b.trace.started_at - a.trace.started_at)[0]
  const running = openJournals.filter((journal) => mine(journal) && journal.isLive)[0]
  const file = readTraceFieldsOrUndefined(runPath)
  const completedLater =
    file !== undefined &&
    (file.status ?? 'completed') === 'completed' &&
    (file.session_id ?? null) === sessionId &&
    (file.user_id ?? null) === userId &&
    (latest === undefined || file.started_at > latest.trace.started_at)
  if (completedLater)
    return { found: undefined, why: `the last run of "${name}"${scopeText(sessionId, userId)} completed, so there is nothing to resume; it runs fresh` }
  if (latest !== undefined) return { found: latest }
  if (running !== undefined) {
    return {
      found: undefined,
      why: `the last run of "${name}"${scopeText(sessionId, userId)} is still being recorded by process ${running.writer.pid}; a fresh run starts beside it`,
    }
  }
  return {
    found: undefined,
    why: `there is no failed, cancelled or interrupted run of "${name}"${scopeText(sessionId, userId)} in ${dirname(runPath)} to resume; it runs fresh`,
  }
}

/** Says why a resume runs fresh, once per run file and reason in this process. */
export function warnFresh(runPath: string, why: string): void {
  const key = `${runPath}\n${why}`
  if (warned.has(key)) return
  warned.add(key)
  warn('REAGENT_RESUME', `resume(): ${why}.`)
}
