/** `reagent-flow serve`: the run ledger over HTTP (and MCP at /mcp), until SIGINT or SIGTERM. */
import {
  installCommand,
  MCP_PACKAGES,
  METRICS_PACKAGES,
  POSTGRES_PACKAGES,
  packageSpecs,
  requirePackages,
  SERVER_PACKAGES,
} from '../../base/optional-dependency.js'
import { intOption, stringOption } from '../args.js'
import type { Command } from '../command.js'
import { defaultLogFormat, LOG_LEVELS, type LogFormat, type LogLevel } from '../../server/server-log.js'
import { UsageError } from '../../errors/index.js'
import { ageOption } from '../age-option.js'
import { LEDGER_OPTIONS, ledgerSettings } from '../ledger-options.js'
import { DEFAULT_WRITE_QUEUE } from '../../ledger/write-queue.js'

export const DEFAULT_PORT = 4319
const DEFAULT_DRAIN_SECONDS = 10
const SERVE_PACKAGES = [...SERVER_PACKAGES, ...MCP_PACKAGES, ...METRICS_PACKAGES]

export const serveCommand: Command = {
  name: 'serve',
  args: '',
  summary: 'the run ledger as a service: run.begin, run.complete, run.get, run.grade, run.list over HTTP and MCP',
  details: [
    'POST /v1/<operation> with a JSON body (the Loom run-operations fields); MCP (streamable HTTP) at /mcp.',
    'The store is the trace directory (every run session() writes there is a run) or PostgreSQL.',
    "Without --token-file the server is a single user's: loopback only, org and namespace from --org/--namespace.",
    'A token file maps bearer tokens to an org and namespace (and optionally an agent and a session_id):',
    '  { "tokens": [ { "name": "ci", "token": "<32+ random characters>", "org": "acme", "namespace": "ci" } ] }',
    'An entry\'s "role" is read (look only), write (the default: record runs and results) or admin (also run.prune); a token sees only its org and namespace.',
    "The team viewer at /ledger/: the ledger's runs, their traces and golden diffs, and Trends (pass rate and cost per agent over time);",
    'with a token file, open /ledger/?token=<token> once (a cookie keeps it); it shows what run.list shows that token.',
    'GET /healthz answers 200 while it runs; GET /readyz 200 when the store answers, 503 naming what is not ready (the store, a shutdown).',
    'GET /metrics: Prometheus metrics; open without --token-file, otherwise only with the token of --metrics-token-file.',
    'The log goes to stderr: one line per request and one per server event, as JSON (text on a terminal; --log-format).',
    "--retention prunes as reagent-flow ledger prune does (never an active run, the newest run of an agent, nor a run of a branch's latest results), logging each project's outcome.",
    'SIGINT or SIGTERM: /readyz answers 503, the requests in flight finish (--drain-timeout), the store is closed, exit 0; a second signal stops at once.',
    `Needs optional peer dependencies of reagent-flow: ${installCommand(SERVE_PACKAGES)} (and ${packageSpecs(POSTGRES_PACKAGES)} for PostgreSQL)`,
  ],
  options: {
    ...LEDGER_OPTIONS,
    host: { type: 'string', value: '<address>', default: '127.0.0.1', description: 'the address to listen on; other than loopback needs --token-file' },
    port: { type: 'string', value: '<port>', default: String(DEFAULT_PORT), description: 'the port (0 picks a free one)' },
    'token-file': { type: 'string', value: '<file.json>', description: 'bearer tokens and the org, namespace, agent and session each may use' },
    view: { type: 'boolean', description: 'also serve the trace viewer of --dir at / (see reagent-flow view)' },
    'log-format': {
      type: 'string',
      value: '<format>',
      choices: ['json', 'text'],
      description: 'the log on stderr (default: text on a terminal, json otherwise)',
    },
    'log-level': { type: 'string', value: '<level>', choices: [...LOG_LEVELS], default: 'info', description: 'the least level logged (debug adds the probes)' },
    'drain-timeout': {
      type: 'string',
      value: '<seconds>',
      default: String(DEFAULT_DRAIN_SECONDS),
      description: 'how long a shutdown waits for the requests in flight before closing their connections',
    },
    'write-queue': {
      type: 'string',
      value: '<writes>',
      default: String(DEFAULT_WRITE_QUEUE),
      description: 'writes (run.begin, run.complete, run.grade) that may wait to be committed; one more is answered 503 with Retry-After',
    },
    'metrics-token-file': { type: 'string', value: '<file>', description: 'a file holding the bearer token that GET /metrics needs (16+ characters)' },
    retention: {
      type: 'string',
      value: '<age>',
      description: 'prune runs started longer ago than this (90d, 12w, 36h) in every project it serves: a minute after start, then daily',
    },
    'retention-keep-failed': { type: 'boolean', description: 'with --retention: keep the runs that failed or were graded fail' },
    'retention-keep-last': {
      type: 'string',
      value: '<N>',
      default: '1',
      description: 'with --retention: keep the newest N runs of each agent, whatever their age',
    },
  },
  positionals: { min: 0, max: 0, names: '' },
  examples: [
    'reagent-flow serve',
    'reagent-flow serve --view',
    'reagent-flow serve --store postgres://ledger@db.internal/ledger --host 0.0.0.0 --token-file tokens.json',
    'curl -s localhost:4319/v1/run.list -d \'{"status": "failed"}\'',
    'reagent-flow serve --store postgres://... --host 0.0.0.0 --token-file tokens.json --metrics-token-file metrics.token --drain-timeout 30',
    'reagent-flow serve --store postgres://... --token-file tokens.json --retention 90d --retention-keep-failed',
  ],
  async run(input, ctx) {
    await requirePackages('the run ledger server', SERVE_PACKAGES)
    const settings = ledgerSettings(input, ctx)
    const port = intOption(input, 'port', DEFAULT_PORT, 0, 65_535)
    const tokenFile = stringOption(input, 'token-file')
    const retention = ageOption(input, 'retention')
    const keepLast = intOption(input, 'retention-keep-last', 1, 1, 1_000_000)
    if (retention === undefined && (input.options['retention-keep-failed'] === true || input.options['retention-keep-last'] !== undefined)) {
      throw new UsageError('--retention-keep-failed and --retention-keep-last go with --retention <age> (how old a run must be to be pruned)')
    }
    const { serveLedger } = await import('../serve-ledger.js')
    const viewDir = input.options.view === true ? ctx.dir : undefined
    return serveLedger(
      {
        ...settings,
        port,
        host: stringOption(input, 'host') ?? '127.0.0.1',
        tokenFile,
        viewDir,
        logFormat: (stringOption(input, 'log-format') as LogFormat | undefined) ?? defaultLogFormat(),
        logLevel: (stringOption(input, 'log-level') as LogLevel | undefined) ?? 'info',
        drainMs: intOption(input, 'drain-timeout', DEFAULT_DRAIN_SECONDS, 0, 3600) * 1000,
        metricsTokenFile: stringOption(input, 'metrics-token-file'),
        retention: retention === undefined ? undefined : { olderThan: retention, keepFailed: input.options['retention-keep-failed'] === true, keepLast },
        writeQueue: intOption(input, 'write-queue', DEFAULT_WRITE_QUEUE, 1, 1_000_000),
      },
      ctx,
    )
  },
}
