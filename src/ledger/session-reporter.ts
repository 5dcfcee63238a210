/**
 * `session()` reporting its run to a ledger (the `ledger` option, or
 * `REAGENT_LEDGER_URL` and `REAGENT_LEDGER_TOKEN`): run.begin when the
 * session opens (sent at once, not waited for), then, when it closes and its
 * trace is written, run.complete and trace.put, so tests on many machines
 * land in one ledger. The run id is the trace id. Where the run came from
 * goes into the run's metadata (the specification's place for what has no
 * field of its own): its test file and test name inside vitest, and the git
 * commit and branch, so a CI build's runs can be grouped.
 *
 * A ledger that is down or refuses never fails the test: the first failure
 * in the process is one REAGENT_LEDGER warning, later ones are silent, and
 * the trace is written locally as always.
 */
import { isCi } from '../golden/update-mode.js'
import { renderTrace } from '../storage/index.js'
import { finalResponse } from '../trace/facts.js'
import { redactForDisk, type RedactOption } from '../redact/index.js'
import type { JsonObject, Trace } from '../trace/types.js'
import { createLedgerClient, type LedgerClient } from './client.js'
import { gitRevision } from './git-revision.js'
import type { RunCompleteInput } from './input-types.js'
import { type LedgerReportOptions, warnLedgerOnce } from './ledger-option.js'
import type { OpenedRun } from './opened-run.js'

const amount = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : 0)

export interface LedgerReport {
  /** Completes the run and uploads its trace (rendered with `redact`, as its file is); never throws. */
  finish(trace: Trace, redact: RedactOption | undefined): Promise<void>
}

/**
 * What the run row's metadata says about where the run came from: the test
 * (file relative to the vitest root, full name) and the git revision. The
 * session's own metadata wins a clash: a key its author set is theirs.
 */
function originOf(run: OpenedRun, root: string): JsonObject {
  const origin: JsonObject = {}
  if (run.test_file !== undefined) origin.test_file = run.test_file
  if (run.test_name !== undefined) origin.test_name = run.test_name
  const { commit, branch } = gitRevision(root)
  if (commit !== undefined) origin.git_commit = commit
  if (branch !== undefined) origin.git_branch = branch
  return origin
}

/**
 * Starts reporting the run `trace` (as its session opened) to `ledger`.
 * `root` is where git is asked for the revision: the vitest root inside a
 * test, else the working directory.
 */
export function startLedgerReport(trace: OpenedRun, ledger: LedgerReportOptions, redact: RedactOption | undefined, root: string = process.cwd()): LedgerReport {
  const timeoutMs = ledger.timeoutMs ?? 5000
  const client: LedgerClient = createLedgerClient(ledger.url, { token: ledger.token, timeoutMs })
  const uploads = createLedgerClient(ledger.url, { token: ledger.token, timeoutMs: timeoutMs * 6 })
  const failed = (error: unknown): void =>
    warnLedgerOnce(
      `url:${ledger.url}`,
      `session "${trace.name}": the run was not reported to the ledger at ${ledger.url}: ${error instanceof Error ? error.message : String(error)}. ` +
        'The test goes on and its trace is written locally; further ledger failures in this process are not reported.',
    )
  // What reaches the ledger is redacted as the trace file is: the name, the ids, the goal and the metadata here, the rest in finish().
  const shown = { agent: trace.name, user_id: trace.user_id ?? '-', session_id: trace.session_id, metadata: { ...originOf(trace, root), ...trace.metadata } }
  const { agent, user_id, session_id, metadata } = redactForDisk(shown, redact) as {
    agent: string
    user_id: string
    session_id: string | null
    metadata: JsonObject
  }
  const budgetUsd = amount(metadata.budget_usd)
  const begun = client
    .begin({
      agent: agent.slice(0, 256),
      goal: typeof metadata.goal === 'string' && metadata.goal !== '' ? metadata.goal : agent,
      run_id: trace.trace_id,
      user_id,
      // A cost budget is kept per session: a run without one is its own.
      session_id: session_id ?? (budgetUsd > 0 ? trace.trace_id : '-'),
      environment: isCi(process.env) ? 'ci' : 'local',
      consumer: 'reagent-flow',
      metadata,
      budget_usd: budgetUsd,
      budget_seconds: Math.floor(amount(metadata.budget_seconds)),
    })
    .then(
      () => true,
      (error: unknown) => {
        failed(error)
        return false
      },
    )
  return {
    async finish(closed, redact) {
      if (!(await begun)) return
      const raw = closed as Trace & { interruption_reason?: unknown }
      const closedMetadata: JsonObject = {}
      if (typeof raw.interruption_reason === 'string') closedMetadata.interruption_reason = raw.interruption_reason
      if (closed.error != null) closedMetadata.error = `${closed.error.name}: ${closed.error.message}`
      const status = closed.status === 'completed' || closed.status === 'cancelled' ? closed.status : 'failed'
      const ended = closed.ended_at ?? closed.started_at
      const shown = redactForDisk({ final_response: finalResponse(closed) ?? '', metadata: closedMetadata }, redact) as {
        final_response: string
        metadata: JsonObject
      }
      const completion: RunCompleteInput = {
        run_id: closed.trace_id,
        status: status as RunCompleteInput['status'],
        final_response: shown.final_response,
        duration_ms: Math.max(0, Math.round((ended - closed.started_at) * 1000)),
        metadata: shown.metadata,
      }
      try {
        await client.complete(completion)
        await uploads.putTrace({ run_id: closed.trace_id }, renderTrace(closed, { redact }))
      } catch (error) {
        failed(error)
      }
    },
  }
}
