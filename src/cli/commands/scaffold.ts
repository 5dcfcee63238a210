/**
 * `reagent-flow scaffold <run> --agent src/agent.ts#refundAgent`: a recorded
 * run (an incident) as a vitest test that plays it again offline, and the
 * run as that test's golden. See docs/incidents.md and decision 078.
 */
import { join, relative, resolve, sep } from 'node:path'
import { UsageError } from '../../errors/index.js'
import { renderGolden } from '../../golden/index.js'
import { LEDGER_TOKEN_ENV } from '../../ledger/ledger-option.js'
import { plural } from '../../report/format-value.js'
import { shellCommand } from '../../report/shell.js'
import { isFile, resolveTraceFile, sanitizeName, writeFileAtomic } from '../../storage/index.js'
import type { Trace } from '../../trace/types.js'
import { stringOption } from '../args.js'
import { EXIT_OK, type Command, type CommandInput } from '../command.js'
import { agentImport } from '../scaffold/agent-import.js'
import { incidentOf, type Incident } from '../scaffold/incident.js'
import { loadIncident } from '../scaffold/incident-source.js'
import { renderIncidentTest, SDKS, type Sdk } from '../scaffold/render-test.js'

const DEFAULT_OUT = 'test/incidents'

/** `scaffold --json` */
export interface ScaffoldOutput {
  test_file: string
  golden_file: string
  sdk: Sdk
  run: { name: string; trace_id: string; origin: string }
  model_answers: number
  tool_results: number
  flow: string[]
}

/** The SDK the run's model calls name: Anthropic's, the AI SDK's (`openai.chat`, `anthropic.messages`: provider ids with a dot), else OpenAI's. */
function sdkOf(incident: Incident): Sdk {
  if (incident.providers.some((provider) => provider.includes('.'))) return 'ai-sdk'
  if (incident.providers.length > 0 && incident.providers.every((provider) => provider === 'anthropic')) return 'anthropic'
  return 'openai'
}

/** The path as the project writes it, from the working directory (the project root), with `/`. */
const fromRoot = (path: string): string => relative(process.cwd(), resolve(path)).split(sep).join('/')

function refuseExisting(path: string, force: boolean): void {
  if (!force && isFile(path)) throw new UsageError(`${path} exists already; pass --force to replace it, or --name to write another test`)
}

/** The words that scaffold the test again, for its header. */
function commandOf(input: CommandInput, dir: string): string {
  const words = ['npx', 'reagent-flow', 'scaffold', input.positionals[0]!, '--agent', stringOption(input, 'agent')!]
  for (const option of ['out', 'name', 'sdk', 'ledger'] as const) {
    const value = stringOption(input, option)
    if (value !== undefined) words.push(`--${option}`, value)
  }
  if (dir !== '.reagent') words.push('--dir', dir)
  return shellCommand(words)
}

export const scaffoldCommand: Command = {
  name: 'scaffold',
  args: '<run>',
  summary: 'a recorded run (an incident) as a vitest test: the agent answered offline by the run, its flow asserted, the run its golden',
  details: [
    "The test calls the agent with the run's input (the first user message) and { fetch, tools } (OpenAI, Anthropic) or { model, tools }",
    "(AI SDK, LangChain): a scripted model answering as the run's model did and tools answering with the run's results.",
    'It writes <out>/<name>.test.ts and the golden under --dir, where the test reads it; run it from the project root.',
    `A run in a ledger: --ledger <url> and its run id (trace.get); a token of the ledger's token file is ${LEDGER_TOKEN_ENV}.`,
    'A run with a model call that recorded neither text nor tool calls is refused, naming the turn.',
  ],
  options: {
    agent: { type: 'string', value: '<module#export>', description: 'the agent the test calls, e.g. src/agent.ts#refundAgent (required)' },
    out: { type: 'string', value: '<dir>', default: DEFAULT_OUT, description: 'the folder of the test file' },
    name: { type: 'string', value: '<name>', description: "the test file's name (<name>.test.ts; default: the run's name)" },
    sdk: { type: 'string', value: '<sdk>', choices: SDKS, description: "the scripted model the agent gets (default: from the run's providers)" },
    ledger: { type: 'string', value: '<url>', description: 'read <run> as a run id of this ledger (reagent-flow serve)' },
    force: { type: 'boolean', description: 'replace a test file or golden that exists' },
  },
  positionals: { min: 1, max: 1, names: '<run> (a trace name, a trace file, a trace_id, an OTLP/JSON file, or with --ledger a run id)' },
  examples: [
    'reagent-flow scaffold refund-agent --agent src/agent.ts#refundAgent',
    'reagent-flow scaffold spans.json --agent src/agent.ts#refundAgent --name refund-twice',
    'reagent-flow scaffold 01JV6Q3M8X --ledger http://localhost:7600 --agent src/agent.ts#refundAgent',
  ],
  async run(input, ctx) {
    const agentOption = stringOption(input, 'agent')
    if (agentOption === undefined)
      throw new UsageError('scaffold needs the agent the test calls: pass --agent <module>#<export>, e.g. --agent src/agent.ts#refundAgent')
    const ledgerUrl = stringOption(input, 'ledger')
    const ledger = ledgerUrl === undefined ? undefined : { url: ledgerUrl, token: process.env[LEDGER_TOKEN_ENV] || undefined }
    const source = await loadIncident(input.positionals[0]!, ctx.dir, ledger)
    const incident = incidentOf(source.trace)
    const sdk = (stringOption(input, 'sdk') as Sdk | undefined) ?? sdkOf(incident)
    const testFile = join(stringOption(input, 'out') ?? DEFAULT_OUT, `${sanitizeName(stringOption(input, 'name') ?? source.trace.name)}.test.ts`)
    const testName = `does what it did in run ${source.trace.name}`
    const identity = { name: testName, test_file: fromRoot(testFile), test_name: testName, test_key: testName }
    const goldenFile = resolveTraceFile(identity, { traceDir: ctx.dir, golden: true })
    const force = input.options['force'] === true
    refuseExisting(testFile, force)
    refuseExisting(goldenFile, force)
    const { ledger: _row, ...trace } = source.trace as Trace & { ledger?: unknown }
    const text = renderIncidentTest({
      incident,
      sdk,
      testFile: identity.test_file,
      testName,
      agent: agentImport(agentOption, testFile),
      origin: [
        `Incident: run "${source.trace.name}" (trace ${source.trace.trace_id}, started ${new Date(source.trace.started_at * 1000).toISOString()}),`,
        `from ${source.origin}.`,
      ],
      goldenFile: fromRoot(goldenFile),
      command: commandOf(input, ctx.dir),
    })
    writeFileAtomic(testFile, text)
    writeFileAtomic(goldenFile, renderGolden({ ...trace, ...identity } as Trace).text)
    const out: ScaffoldOutput = {
      test_file: testFile,
      golden_file: goldenFile,
      sdk,
      run: { name: source.trace.name, trace_id: source.trace.trace_id, origin: source.origin },
      model_answers: incident.steps.length,
      tool_results: [...incident.tools.values()].reduce((sum, answers) => sum + answers.length, 0),
      flow: incident.flow,
    }
    if (ctx.json) ctx.printJson(out)
    else {
      ctx.print(`wrote ${testFile}: run ${source.trace.name} from ${source.origin}`)
      ctx.print(
        `  ${plural(out.model_answers, 'model answer')} (scripted for ${sdk}), ${plural(out.tool_results, 'tool result')}, flow: ${out.flow.length === 0 ? '(no tool calls)' : out.flow.join(' → ')}`,
      )
      ctx.print(`wrote ${goldenFile}: the run as the test's golden (commit it)`)
      ctx.print(`run it: npx vitest run ${identity.test_file}`)
    }
    return EXIT_OK
  },
}
