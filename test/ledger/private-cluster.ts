/**
 * A PostgreSQL cluster of a test's own, for tests that restart or stop it:
 * initdb in a temporary directory, started on a free loopback port with the
 * binaries .ci/postgres uses. The shared cluster (REAGENT_TEST_POSTGRES_URL)
 * is never restarted, so tests running beside this one are not touched.
 */
import { execFile, execFileSync } from 'node:child_process'
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import pg from 'pg'

const BIN = '/usr/lib/postgresql/15/bin'

/** Whether this machine can start a cluster of its own (the binaries .ci/postgres installs are there). */
export const CAN_START_CLUSTER = existsSync(join(BIN, 'initdb'))

export interface PrivateCluster {
  url: string
  /** `pg_ctl restart -m fast`: every connection is terminated (57P01), then the cluster starts again. Resolves once it accepts connections. */
  restart(): Promise<void>
  /** `pg_ctl stop -m fast`: every connection is terminated and the cluster is down, its data kept, until start(). */
  halt(): Promise<void>
  /** Starts a halted cluster; resolves once it accepts connections. */
  start(): Promise<void>
  /** Stops the cluster and removes its directory. */
  stop(): void
}

/** A PostgreSQL binary's command line, run as the user postgres when we are root (initdb refuses root). */
function commandOf(binary: string, args: readonly string[]): [string, string[]] {
  return process.getuid?.() === 0 ? ['runuser', ['-u', 'postgres', '--', join(BIN, binary), ...args]] : [join(BIN, binary), [...args]]
}

function runPostgres(binary: string, args: readonly string[]): void {
  const [command, argv] = commandOf(binary, args)
  execFileSync(command, argv, { stdio: ['ignore', 'ignore', 'pipe'] })
}

/** Without blocking the event loop: the test's load goes on while it runs. */
async function runPostgresAsync(binary: string, args: readonly string[]): Promise<void> {
  const [command, argv] = commandOf(binary, args)
  await promisify(execFile)(command, argv)
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number }
      probe.close(() => resolve(port))
    })
  })
}

async function acceptsConnections(url: string): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const client = new pg.Client({ connectionString: url })
    client.on('error', () => {})
    try {
      await client.connect()
      await client.end()
      return
    } catch (error) {
      if (attempt >= 100) throw error
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
}

export async function startPrivateCluster(): Promise<PrivateCluster> {
  const dir = mkdtempSync(join(tmpdir(), 'reagent-pg-'))
  if (process.getuid?.() === 0) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }).trim()), 0)
  const port = await freePort()
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=50 -c fsync=off`
  runPostgres('initdb', ['-D', dir, '-A', 'trust', '-U', 'postgres', '--no-sync'])
  runPostgres('pg_ctl', ['-D', dir, '-l', join(dir, 'server.log'), '-o', options, '-w', 'start'])
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`
  await acceptsConnections(url)
  let halted = false
  return {
    url,
    async restart() {
      await runPostgresAsync('pg_ctl', ['-D', dir, '-l', join(dir, 'server.log'), '-o', options, '-m', 'fast', '-w', 'restart'])
      await acceptsConnections(url)
    },
    async halt() {
      await runPostgresAsync('pg_ctl', ['-D', dir, '-m', 'fast', '-w', 'stop'])
      halted = true
    },
    async start() {
      await runPostgresAsync('pg_ctl', ['-D', dir, '-l', join(dir, 'server.log'), '-o', options, '-w', 'start'])
      halted = false
      await acceptsConnections(url)
    },
    stop() {
      try {
        if (!halted) runPostgres('pg_ctl', ['-D', dir, '-m', 'immediate', '-w', 'stop'])
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}
