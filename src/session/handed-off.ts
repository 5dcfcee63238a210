/**
 * Work a session handed off as it closed (the ledger's run.complete and
 * trace upload): `session()` resolves without it, and it goes on in the
 * background. What must not be lost when the process ends says so itself
 * (the ledger's outbox spools it at exit); `settleHandedOff` lets a test
 * file's end wait for it, within a bound, so a worker is not torn down with
 * sends in flight.
 */
const pending = new Set<PromiseLike<unknown>>()

/** Lets `work` (which never rejects) go on after its session resolved. */
export function handOff(work: PromiseLike<unknown>): void {
  pending.add(work)
  const forget = (): void => void pending.delete(work)
  work.then(forget, forget)
}

/** Resolves once the work handed off so far settled, or after `timeoutMs`, whichever is first. */
export async function settleHandedOff(timeoutMs: number): Promise<void> {
  if (pending.size === 0) return
  let timer: NodeJS.Timeout | undefined
  const bound = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs)
    timer.unref()
  })
  await Promise.race([Promise.all(pending).then(() => undefined), bound])
  clearTimeout(timer)
}
