/**
 * The server process a stdio transport starts, watched: its standard error
 * kept (the last lines name what went wrong), and how it exited. The SDK's
 * transport keeps its child private and drops the exit code; the child is
 * read from it once started, which is all that is borrowed.
 */
import type { ChildProcess } from 'node:child_process'
import type { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js'

/** How much of the server's standard error is kept (the end of it). */
const KEPT_STDERR = 64 * 1024

export interface Exit {
  code: number | null
  signal: NodeJS.Signals | null
}

export class StdioChild {
  #stderr = ''
  #exit: Exit | undefined
  #child: ChildProcess | undefined
  readonly #exited: Promise<Exit>

  /** Watches the child `transport` starts; call before `client.connect(transport)`. */
  constructor(transport: StdioClientTransport) {
    transport.stderr?.on('data', (chunk: Buffer) => {
      this.#stderr = (this.#stderr + chunk.toString('utf8')).slice(-KEPT_STDERR)
    })
    let settle: (exit: Exit) => void = () => undefined
    this.#exited = new Promise((resolve) => (settle = resolve))
    const start = transport.start.bind(transport)
    transport.start = async () => {
      await start()
      const child = (transport as unknown as { _process?: ChildProcess })._process
      this.#child = child
      child?.once('exit', (code, signal) => {
        this.#exit = { code, signal }
        settle(this.#exit)
      })
    }
  }

  /** The process id, once started; null before, or when it did not start. */
  get pid(): number | null {
    return this.#child?.pid ?? null
  }

  /** How it exited; undefined while it runs (or before it started). */
  get exit(): Exit | undefined {
    return this.#exit
  }

  /** Everything it wrote to standard error (its last 64 KiB). */
  get stderr(): string {
    return this.#stderr
  }

  /** Its last `count` non-empty lines of standard error. */
  lastLines(count = 10): string[] {
    return this.#stderr
      .split('\n')
      .map((line) => line.trimEnd())
      .filter((line) => line !== '')
      .slice(-count)
  }

  /**
   * Ends it, when it still runs: SIGTERM, then SIGKILL if it has not exited
   * within 2 s; resolves once it has. (The SDK's own close, started when
   * `initialize` fails, gives it 2 s on a closed stdin first: too long to leave
   * a failed server behind the error.)
   */
  async end(): Promise<void> {
    if (this.#child === undefined || this.#exit !== undefined) return
    this.#child.kill('SIGTERM')
    if ((await this.waitForExit(2000)) !== undefined) return
    this.#child.kill('SIGKILL')
    await this.#exited
  }

  /** Waits up to `ms` for it to exit; its exit, or undefined when it still runs (or never started). */
  async waitForExit(ms: number): Promise<Exit | undefined> {
    if (this.#child === undefined || this.#exit !== undefined) return this.#exit
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), ms)))
    const exit = await Promise.race([this.#exited, late])
    clearTimeout(timer)
    return exit
  }
}
