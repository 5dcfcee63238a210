/** `reagent-flow export <run> --otlp`: a run and the runs it started as OpenTelemetry spans, for the tracing backend a team already runs. */
import { dirname } from 'node:path'
import { linkChain } from '../../chain/load-chain.js'
import { UsageError } from '../../errors/index.js'
import { toOtlp } from '../../otel/export-trace.js'
import { postOtlp, tracesUrl } from '../../otel/post-otlp.js'
import { plural } from '../../report/format-value.js'
import { isFile, loadTrace, writeFileAtomic, type SkippedFile } from '../../storage/index.js'
import { stringOption } from '../args.js'
import { EXIT_OK, type Command, type CommandInput } from '../command.js'
import { noteUnreadable, scanOnce } from '../ledger.js'
import { resolveRun } from '../resolve.js'

/** `--header name=value` options as headers. */
function headersOf(input: CommandInput): Record<string, string> {
  const raw = input.options['header']
  const headers: Record<string, string> = {}
  for (const header of Array.isArray(raw) ? raw : []) {
    const at = header.indexOf('=')
    if (at <= 0) throw new UsageError(`--header must be name=value (as --header "Authorization=Bearer ..."); got ${JSON.stringify(header)}`)
    headers[header.slice(0, at).trim()] = header.slice(at + 1)
  }
  return headers
}

/** A bad --endpoint is the user's to fix: one line, exit 2. */
function checkEndpoint(endpoint: string): void {
  try {
    tracesUrl(endpoint)
  } catch (error) {
    throw error instanceof TypeError ? new UsageError(error.message) : error
  }
}

export const exportCommand: Command = {
  name: 'export',
  args: '<run>',
  summary: 'a run and the runs it started as OpenTelemetry spans (OTLP/JSON, GenAI conventions), to stdout, a file or an OTLP/HTTP endpoint',
  details: [
    'One invoke_agent span per run (child runs under their parent), a chat span per LLM call, an execute_tool span per tool result.',
    'Messages, response text, tool arguments and results, and the handoff context are left out unless --include-content is given.',
    'Secrets are redacted as in trace files. Span and trace ids come from the trace: exporting the same run twice sends the same ids.',
  ],
  options: {
    otlp: { type: 'boolean', description: 'write OTLP/JSON spans (the one format so far; required)' },
    out: { type: 'string', value: '<file>', description: 'write the spans to this file instead of stdout' },
    endpoint: { type: 'string', value: '<url>', description: 'POST the spans to this OTLP/HTTP receiver (its /v1/traces unless the URL has a path)' },
    header: { type: 'string', multiple: true, value: '<name=value>', description: 'a request header for --endpoint, repeatable' },
    'include-content': { type: 'boolean', description: 'include messages, text, tool arguments and results (opt-in GenAI attributes)' },
  },
  positionals: { min: 1, max: 1, names: '<run> (a trace name, a trace file or a trace_id)' },
  examples: [
    'reagent-flow export support-agent --otlp > spans.json',
    'reagent-flow export support-agent --otlp --endpoint http://127.0.0.1:4318',
    'reagent-flow export support-agent --otlp --include-content --out spans.json',
  ],
  async run(input, ctx) {
    if (input.options['otlp'] !== true)
      throw new UsageError('choose the output format: --otlp (OTLP/JSON spans in the GenAI conventions, the one format so far)')
    const ref = input.positionals[0]!
    const endpoint = stringOption(input, 'endpoint')
    const out = stringOption(input, 'out')
    const headers = headersOf(input)
    if (endpoint !== undefined) checkEndpoint(endpoint)
    // A trace file named by its path brings its own directory: the runs it started are next to it.
    const dir = isFile(ref) ? dirname(ref) : ctx.dir
    const scan = scanOnce(dir)
    const file = resolveRun(ref, dir, scan)
    const skipped: SkippedFile[] = [...scan().skipped]
    const chain = linkChain({ path: file, trace: loadTrace(file) }, scan().traces, skipped)
    const request = toOtlp(chain, { includeContent: input.options['include-content'] === true })
    const spans = request.resourceSpans[0]?.scopeSpans?.[0]?.spans?.length ?? 0
    const runs = chain.flatten().length
    const text = `${JSON.stringify(request)}\n`
    if (endpoint !== undefined) await postOtlp(endpoint, request, { headers })
    if (out !== undefined) writeFileAtomic(out, text)
    const sent = `${plural(spans, 'span')} of ${plural(runs, 'run')}`
    if (ctx.json && (out !== undefined || endpoint !== undefined)) {
      ctx.printJson({
        runs: chain.flatten().map((node) => ({ name: node.name, trace_id: node.traceId, file: node.path })),
        spans,
        out: out ?? null,
        endpoint: endpoint === undefined ? null : tracesUrl(endpoint),
      })
    } else if (out === undefined && endpoint === undefined) ctx.write(text)
    else {
      if (out !== undefined) ctx.print(`wrote ${sent} to ${out}`)
      if (endpoint !== undefined) ctx.print(`sent ${sent} to ${tracesUrl(endpoint)}`)
    }
    noteUnreadable(
      skipped.map(({ path, reason }) => ({ file: path, reason })),
      dir,
      ctx,
    )
    return EXIT_OK
  },
}
