/**
 * An agent in a child process that records into a session, turn by turn,
 * and reports each turn over IPC as soon as it is logged — so a test can
 * kill it (SIGKILL, SIGINT, SIGTERM), let it run out of memory or exit, and
 * then check what reached the disk. The child imports the built package
 * (dist/), as a user's process would.
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { fileURLToPath } from 'node:url'

const ENTRY = fileURLToPath(new URL('../../dist/src/entries/index.js', import.meta.url))

export interface ChildAgent {
  child: ChildProcess
  /** When each turn's report arrived (ms, performance.now() of this process), by turn index. */
  turns: number[]
  /** Resolves once `count` turns have been reported. */
  waitForTurns(count: number): Promise<void>
  /** Resolves with how the child ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>
  /** What the child printed. */
  output(): string
}

/**
 * Starts `body` (the inside of an async function with `session`, `report`
 * (call after each logged turn), `traceDir` and `sleep` in scope) in a child node.
 */
export function startChildAgent(body: string, { traceDir, execArgv = [] }: { traceDir: string; execArgv?: string[] }): ChildAgent {
  const script = `
    import * as reagent from ${JSON.stringify(ENTRY)}
    const { session } = reagent
    const traceDir = ${JSON.stringify(traceDir)}
    const report = () => process.send('turn')
    const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms))
    await (async () => { ${body} })()
  `
  const child = spawn(process.execPath, [...execArgv, '--no-warnings', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] })
  const turns: number[] = []
  const waiters: Array<{ count: number; resolve: () => void }> = []
  let text = ''
  child.stdout!.on('data', (chunk: Buffer) => (text += chunk.toString()))
  child.stderr!.on('data', (chunk: Buffer) => (text += chunk.toString()))
  child.on('message', () => {
    turns.push(performance.now())
    for (const waiter of waiters.filter((w) => turns.length >= w.count)) {
      waiters.splice(waiters.indexOf(waiter), 1)
      waiter.resolve()
    }
  })
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })))
  return {
    child,
    turns,
    waitForTurns: (count) =>
      new Promise<void>((resolve, reject) => {
        if (turns.length >= count) return resolve()
        waiters.push({ count, resolve })
        void exited.then(({ code, signal }) => reject(new Error(`the child ended (code ${code}, signal ${signal}) after ${turns.length} turns:\n${text}`)))
      }),
    exited,
    output: () => text,
  }
}
