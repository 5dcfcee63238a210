/**
 * Counts the TCP connections this process opens during the current test
 * (Node's `net.client.socket` diagnostics channel: every client socket,
 * `fetch` included), so a replayed run can be shown to open none.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel'
import { onTestFinished } from 'vitest'

export function watchSockets(): { opened: () => number } {
  let opened = 0
  const onSocket = (): void => void opened++
  subscribe('net.client.socket', onSocket)
  onTestFinished(() => void unsubscribe('net.client.socket', onSocket))
  return { opened: () => opened }
}
