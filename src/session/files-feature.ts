/**
 * The run's files as a feature of the session (run-files.ts): the journal
 * opens once every feature has attached (one that refuses its options has
 * thrown before any file exists) and hears every turn and result as it is
 * recorded; the trace file is written when the session closes, and again
 * when a closed run is amended (`golden: true`), from the turn text the
 * journal made as it took each turn, for the turns unchanged since. A session with a file to
 * write is saved when the process ends first (open-sessions.ts).
 */
import { warn } from '../warnings/warnings.js'
import { FeatureKey, internals } from './internals.js'
import { sessionClosed, sessionOpened } from './open-sessions.js'
import { RunFiles } from './run-files.js'
import type { Session, SessionFeature } from './session.js'
import type { RecordingOptions } from './options.js'

/** The files of a session that writes them (not with `save: false`). */
export const RUN_FILES = new FeatureKey<RunFiles>('run files')

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error)
}

export const runFilesFeature: SessionFeature = {
  attach(session: Session, options: RecordingOptions): void {
    if (options.save === false) return
    const inner = session[internals]
    const { lifecycle, trace } = inner
    lifecycle.on('opened', () => {
      const files = new RunFiles(trace, trace.turns, { runPath: inner.location.runPath, redact: options.redact, journal: options.journal !== false })
      inner.set(RUN_FILES, files)
      const journal = files.listener
      if (journal !== undefined) {
        lifecycle.on('turn', (index, durationMs) => journal.onTurn(index, durationMs))
        lifecycle.on('tool-result', (index, result, durationMs, name, injected) => journal.onResult(index, result, durationMs, name, injected))
        lifecycle.on('orphan-result', (orphan) => journal.onOrphan(orphan))
        lifecycle.on('tool-set', (id, tools) => journal.onToolSet(id, tools))
        lifecycle.on('turn-changed', (index) => files.turnChanged(index))
      }
      // Only a session with a file to write has something to save when the process ends first.
      sessionOpened(inner)
    })
    lifecycle.on('closing', () => {
      sessionClosed(inner)
      // The journal first: the synchronous writes that follow hold the event loop, so its timer cannot flush during them.
      inner.get(RUN_FILES)?.flushJournal()
    })
    lifecycle.on('closed', (closed) => {
      const files = inner.get(RUN_FILES)
      if (files === undefined) return
      try {
        files.write(closed)
        inner.path = files.runPath
      } catch (error) {
        files.abandon(closed, error)
        // The run itself is not at fault: keep the trace in memory, say why the file is missing.
        warn('REAGENT_WRITE', `session "${closed.name}": the trace could not be written (${messageOf(error)}); it is kept in memory on session.trace.`)
      }
    })
    lifecycle.on('amended', (amended) => {
      if (inner.path === undefined) return
      try {
        inner.get(RUN_FILES)?.rewrite(amended)
      } catch (error) {
        warn(
          'REAGENT_WRITE',
          `session "${amended.name}": its trace file could not be marked as compared with its golden (${messageOf(error)}); ` +
            `reagent-flow approve --all approves it only once it has a golden.`,
        )
      }
    })
  },
}
