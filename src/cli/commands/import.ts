/** `reagent-flow import spans.json`: OpenTelemetry spans (OTLP/JSON) as reagent-flow traces, one per agent run. */
import { UsageError } from '../../errors/index.js'
import { DIALECT_OPTIONS, type DialectOption } from '../../otel/dialects/index.js'
import { tracesFromSpans } from '../../otel/import-traces.js'
import { plural } from '../../report/format-value.js'
import { isFile, readTextOrNull, renderTrace, writeFileAtomic } from '../../storage/index.js'
import { EXIT_OK, type Command } from '../command.js'
import { ImportPaths } from '../import-paths.js'
import { spansOfFile } from '../otlp-file.js'

/** `<dir>/<name>.trace.json`, or `<name>-2.trace.json` and on when this import already wrote a run of that name: one import never overwrites its own runs. */
export const importCommand: Command = {
  name: 'import',
  args: '<spans.json>',
  summary: 'OpenTelemetry spans (OTLP/JSON: GenAI conventions, OpenInference, OpenLLMetry) as traces, one per agent run',
  details: [
    'One trace per root agent or workflow span, agents inside it as child runs (parent_trace_id); model calls and tool spans become turns.',
    "The file holds one OTLP/JSON request, or one per line (the Collector's file exporter). Traces are written to --dir.",
    'Spans reagent-flow exported come back as the traces they were.',
  ],
  options: {
    dialect: {
      type: 'string',
      value: '<name>',
      choices: DIALECT_OPTIONS,
      default: 'auto',
      description: 'the conventions the spans follow (auto: detected from their attributes)',
    },
  },
  positionals: { min: 1, max: 1, names: '<spans.json> (an OTLP/JSON file)' },
  examples: ['reagent-flow import spans.json', 'reagent-flow import phoenix-export.json --dialect openinference --dir test/.traces'],
  async run(input, ctx) {
    const file = input.positionals[0]!
    if (!isFile(file)) throw new UsageError(`${file} is not a file; pass the path of an OTLP/JSON span file`)
    const text = readTextOrNull(file) ?? ''
    const dialect = (typeof input.options['dialect'] === 'string' ? input.options['dialect'] : 'auto') as DialectOption
    const imported = await tracesFromSpans(spansOfFile(text, file), { dialect, source: file })
    const paths = new ImportPaths(ctx.dir)
    const rows = imported.traces.map((trace) => {
      const path = paths.pathFor(trace.name)
      writeFileAtomic(path, renderTrace(trace))
      return { file: path, name: trace.name, trace_id: trace.trace_id, parent_trace_id: trace.parent_trace_id, turns: trace.turns.length }
    })
    if (ctx.json) ctx.printJson({ dialect: imported.dialect, traces: rows })
    else {
      ctx.print(`${plural(rows.length, 'trace')} from ${file} (${imported.dialect} spans):`)
      for (const row of rows)
        ctx.print(`  ${row.file}  ${row.name}  ${plural(row.turns, 'turn')}${row.parent_trace_id === null ? '' : `  child of ${row.parent_trace_id}`}`)
    }
    return EXIT_OK
  },
}
