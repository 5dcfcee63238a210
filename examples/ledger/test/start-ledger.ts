// test/start-ledger.ts
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import type { TestProject } from 'vitest/node'

declare module 'vitest' {
  export interface ProvidedContext {
    ledgerUrl: string
  }
}

// `npx reagent-flow serve --port 0` on a directory of its own; the tests get its URL by inject('ledgerUrl').
export default async function startLedger(project: TestProject): Promise<() => void> {
  const packageJson = createRequire(import.meta.url).resolve('reagent-flow/package.json')
  const cli = join(dirname(packageJson), (JSON.parse(readFileSync(packageJson, 'utf8')) as { bin: Record<string, string> }).bin['reagent-flow']!)
  const dir = mkdtempSync(join(tmpdir(), 'ledger-'))
  const server = spawn(process.execPath, [cli, 'serve', '--port', '0', '--dir', dir], { stdio: ['ignore', 'pipe', 'inherit'] })
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    server.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk
      const listening = /the run ledger on (http:\/\/\S+)\/v1 /.exec(out) // its first line says where it listens
      if (listening !== null) resolve(listening[1]!)
    })
    server.once('exit', (code) => reject(new Error(`reagent-flow serve exited with ${code} before listening`)))
  })
  project.provide('ledgerUrl', url)
  return () => void server.kill('SIGTERM')
}
