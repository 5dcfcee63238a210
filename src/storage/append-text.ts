/**
 * Appending to a file another program owns and reads after us: GitHub
 * Actions' job summary (`$GITHUB_STEP_SUMMARY`), which every step of a job
 * appends to. Not atomic by design: the file is the runner's, and the others'
 * text in it must stay.
 */
import { appendFileSync } from 'node:fs'
import { TraceFileError } from '../errors/index.js'

/** Appends `text` to `path` (made when missing). Throws `TraceFileError` naming the path. */
export function appendText(path: string, text: string): void {
  try {
    appendFileSync(path, text)
  } catch (error) {
    throw new TraceFileError(path, 'append to', error)
  }
}
