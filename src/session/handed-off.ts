/**
 * Work a session handed off as it closed (the ledger's run.complete and
 * trace upload): `session()` resolves without it, and it goes on in the
 * background. What must not be lost when the process ends says so itself
 * (the ledger's outbox spools it at exit); `settleHandedOff` lets a test
 * file's end wait for it, within a bound, so a worker is not torn down with
 * sends in flight, and `handedOffSettled` lets a caller wait for one
 * session's (the ledger's `ledgerSent`).
 */
const pending = new Map<PromiseLike<unknown>, string>()

/** Lets `work` (which never rejects) of the session whose trace id is `traceId` go on after its session resolved. */
export function handOff(work: PromiseLike<unknown>, traceId: string): void {
  pending.set(work, traceId)
  const forget = (): void => void pending.delete(work)
  work.then(forget, forget)
}

/** Resolves once the work handed off so far by the session `traceId` (every session's when undefined) settled. */
export async function handedOffSettled(traceId: string | undefined): Promise<void> {
  const waiting = [...pending].filter(([, owner]) => traceId === undefined || owner === traceId).map(([work]) => work)
  await Promise.all(waiting)
}

/** Resolves once the work handed off so far settled, or after `timeoutMs`, whichever is first. */
export async function settleHandedOff(timeoutMs: number): Promise<void> {
  if (pending.size === 0) return
  let timer: NodeJS.Timeout | undefined
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs)
    timer.unref()
  })
  await Promise.race([handedOffSettled(undefined), bound])
  clearTimeout(timer)
}
