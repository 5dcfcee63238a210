/**
 * `view --open`: the page in the user's browser. `$BROWSER` when set (as
 * git and Python's webbrowser read it), else the system's opener. Started
 * detached and never waited for: a browser that fails to start is a note,
 * never an error of the server.
 */
import { spawn } from 'node:child_process'

function opener(url: string): { command: string; args: string[] } {
  const browser = process.env.BROWSER
  if (browser !== undefined && browser !== '') return { command: browser, args: [url] }
  if (process.platform === 'darwin') return { command: 'open', args: [url] }
  if (process.platform === 'win32') return { command: 'cmd', args: ['/c', 'start', '""', url] }
  return { command: 'xdg-open', args: [url] }
}

/** Opens `url`; calls `failed` with a sentence when the opener cannot be started. */
export function openBrowser(url: string, failed: (reason: string) => void): void {
  const { command, args } = opener(url)
  try {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' })
    child.once('error', (error) => failed(`could not open a browser with ${command} (${error.message}); open ${url} yourself`))
    child.unref()
  } catch (error) {
    failed(`could not open a browser with ${command} (${(error as Error).message}); open ${url} yourself`)
  }
}
