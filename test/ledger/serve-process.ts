/** `reagent-flow serve` as a child process (the built CLI), as a user starts it. */
import { spawn, type ChildProcess } from 'node:child_process'
import { onTestFinished } from 'vitest'
import { CLI } from '../cli/run-cli.js'

export interface ServeProcess {
  child: ChildProcess
  url: string
  stderr: () => string
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
}

/** Starts `reagent-flow serve ...args` and resolves once it printed its URL (rejects with its stderr if it exits first). */
export function spawnServe(args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<ServeProcess> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', ...args], {
    cwd,
    env: { ...process.env, NO_COLOR: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk))
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk))
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  )
  onTestFinished(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
  })
  return new Promise((resolve, reject) => {
    const onData = (): void => {
      const url = /the run ledger on (http:\/\/\S+)\/v1 /.exec(stdout)?.[1]
      if (url === undefined) return
      child.stdout!.off('data', onData)
      resolve({ child, url, stderr: () => stderr, exited })
    }
    child.stdout!.on('data', onData)
    void exited.then(({ code }) => reject(new Error(`reagent-flow serve exited with ${code} before listening: ${stderr}`)))
  })
}

/** POST /v1/<operation> with a JSON body; the status and parsed body. */
export async function post<T = Record<string, unknown>>(url: string, operation: string, body: unknown, token?: string): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { 'content-type': 'application/json', ...(token === undefined ? {} : { authorization: `Bearer ${token}` }) }
  const response = await fetch(`${url}/v1/${operation}`, { method: 'POST', headers, body: JSON.stringify(body) })
  return { status: response.status, body: (await response.json()) as T }
}
