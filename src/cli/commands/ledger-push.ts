/**
 * `reagent-flow ledger push`: the runs the session reporter could not send
 * (kept in `<dir>/ledger-outbox/`, see ledger/outbox.ts) sent to the ledger,
 * each file removed once its run is there. Sending twice is harmless:
 * run.begin of a run the ledger has is answered with that run, run.complete
 * of a closed run (409 run_closed) means it was completed already, and
 * trace.put replaces the trace with the same one.
 */
import { createLedgerClient, type LedgerClient } from '../../ledger/client.js'
import { isLedgerError } from '../../ledger/errors.js'
import { LEDGER_TOKEN_ENV, LEDGER_URL_ENV } from '../../ledger/ledger-option.js'
import { outboxOf, readOutbox, removeSpooled, type SpooledRun } from '../../ledger/outbox.js'
import { stringOption } from '../args.js'
import { EXIT_CHECK_FAILED, EXIT_OK, type Command } from '../command.js'

async function send(client: LedgerClient, run: SpooledRun): Promise<void> {
  await client.begin(run.begin)
  try {
    await client.complete(run.complete)
  } catch (error) {
    // Completed already (an earlier push, or a send whose answer was lost): the ledger has it.
    if (!(isLedgerError(error) && error.body?.error === 'run_closed')) throw error
  }
  if (run.trace !== null) await client.putTrace({ run_id: run.run_id }, run.trace)
}

export const ledgerPushCommand: Command = {
  name: 'ledger push',
  args: '',
  summary: 'send the runs session() could not report to the ledger (kept in <dir>/ledger-outbox/), and remove each one sent',
  details: [
    'session() never waits for the ledger: a run it could not send (the ledger down, a timeout, a 429 or 5xx answer) is kept, redacted as its trace file is.',
    'Each run goes to --ledger, else the ledger it was meant for; a run the ledger has already is not written twice.',
    `A token of the ledger's token file is ${LEDGER_TOKEN_ENV}.`,
    'Exit codes: 0 every run sent (or none kept), 1 some could not be sent (they stay kept), 2 bad usage.',
  ],
  options: {
    ledger: { type: 'string', value: '<url>', description: `the ledger's URL (default: the one each run was meant for, else ${LEDGER_URL_ENV})` },
  },
  positionals: { min: 0, max: 0, names: '' },
  examples: ['reagent-flow ledger push', 'reagent-flow ledger push --ledger https://ledger.example.com --dir .reagent'],
  async run(input, ctx) {
    const given = stringOption(input, 'ledger') || undefined
    const outbox = outboxOf(ctx.dir)
    const token = process.env[LEDGER_TOKEN_ENV] || undefined
    const clients = new Map<string, LedgerClient>()
    const clientFor = (url: string): LedgerClient => {
      let client = clients.get(url)
      if (client === undefined) clients.set(url, (client = createLedgerClient(url, { token })))
      return client
    }
    const sent: Array<{ run_id: string; agent: string | undefined; ledger: string }> = []
    const failed: Array<{ file: string; run_id: string | null; error: string }> = []
    for (const { path, run, problem } of readOutbox(outbox)) {
      if (run === undefined) {
        failed.push({ file: path, run_id: null, error: problem ?? 'unreadable' })
        if (!ctx.json) ctx.note(`skipped ${path}: ${problem ?? 'unreadable'}`)
        continue
      }
      const client = clientFor(given ?? (run.ledger || process.env[LEDGER_URL_ENV] || ''))
      try {
        await send(client, run)
        removeSpooled(path)
        sent.push({ run_id: run.run_id, agent: run.begin.agent, ledger: client.url })
        if (!ctx.json) ctx.print(`sent ${run.run_id} (${run.begin.agent ?? 'unnamed'}) to ${client.url}`)
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error)
        failed.push({ file: path, run_id: run.run_id, error: message })
        if (!ctx.json) ctx.note(`not sent ${run.run_id} (${run.begin.agent ?? 'unnamed'}): ${message}; it stays in ${outbox}`)
      }
    }
    if (ctx.json) ctx.printJson({ outbox, sent, failed })
    else ctx.print(`${sent.length} run(s) sent, ${failed.length} not sent${sent.length + failed.length === 0 ? ` (${outbox} holds none)` : ''}`)
    return failed.length === 0 ? EXIT_OK : EXIT_CHECK_FAILED
  },
}
