/**
 * The vitest file `reagent-flow scaffold` writes for an incident: the agent
 * called with the run's input and `{ fetch | model, tools }` (a scripted
 * model answering as the run's model did, tools answering with the run's
 * results), the run's tool flow asserted, and the run as the test's golden.
 */
import type { JsonValue } from '../../trace/types.js'
import type { Incident } from './incident.js'
import { tsLiteral, tsString } from './ts-literal.js'

/** Which scripted model the agent gets: `scriptedFetch` for the OpenAI and Anthropic SDKs, `scriptedLanguageModel` for the AI SDK, `scriptedChatModel` for LangChain. */
export const SDKS = ['openai', 'anthropic', 'ai-sdk', 'langchain'] as const
export type Sdk = (typeof SDKS)[number]

export interface TestFileParts {
  incident: Incident
  sdk: Sdk
  /** The test file, relative to the project root (posix): its first line. */
  testFile: string
  testName: string
  /** The agent: what to import it from (relative to the test file), and the export (`default` for the default one). */
  agent: { specifier: string; exportName: string }
  /** The lines of the header that say where the run came from. */
  origin: string[]
  /** The golden file the scaffold wrote, relative to the project root. */
  goldenFile: string
  /** The command that scaffolds the file again. */
  command: string
}

/** The scripted model's variable, the value the agent gets, and the import. */
function modelOf(sdk: Sdk): { variable: string; factory: string; from: string } {
  if (sdk === 'ai-sdk') return { variable: 'model', factory: 'scriptedLanguageModel', from: 'reagent-flow/fake' }
  if (sdk === 'langchain') return { variable: 'model', factory: 'scriptedChatModel', from: 'reagent-flow/fake/langchain' }
  return { variable: 'fetch', factory: 'scriptedFetch', from: 'reagent-flow/fake' }
}

function importsOf(parts: TestFileParts): string[] {
  const model = modelOf(parts.sdk)
  const fake =
    model.from === 'reagent-flow/fake'
      ? [`import { ${model.factory}, scriptedTools } from 'reagent-flow/fake'`]
      : [`import { scriptedTools } from 'reagent-flow/fake'`, `import { ${model.factory} } from '${model.from}'`]
  const agent = parts.agent.exportName === 'default' ? 'agent' : `{ ${parts.agent.exportName} }`
  return ["import { expect } from 'vitest'", ...fake, "import { test } from 'reagent-flow/vitest'", `import ${agent} from ${tsString(parts.agent.specifier)}`]
}

function headerOf(parts: TestFileParts): string[] {
  const { variable } = modelOf(parts.sdk)
  return [
    `// ${parts.testFile}`,
    '/**',
    ...parts.origin.map((line) => ` * ${line}`),
    ' * Written by `reagent-flow scaffold`.',
    ' *',
    ` * The agent is called with the run's input and { ${variable}, tools }: a scripted model answering each model call`,
    " * as the run's model did, and tools answering with the run's recorded results, so no model and no production",
    ' * system is reached. The test passes while the agent does what it did in the run; when it does something',
    ' * else, the golden diff says what changed.',
    ' *',
    ` * The golden (commit it): ${parts.goldenFile}`,
    ` * Once the new behaviour is right, make it the golden: npx vitest run ${parts.testFile} -u`,
    ` * Scaffold the test again from the run: ${parts.command} --force`,
    ' */',
  ]
}

function toolsOf(incident: Incident): JsonValue {
  return Object.fromEntries(incident.tools) as JsonValue
}

function bodyOf(parts: TestFileParts): string[] {
  const { incident } = parts
  const model = modelOf(parts.sdk)
  const call = parts.agent.exportName === 'default' ? 'agent' : parts.agent.exportName
  const lines = [
    `test(${tsString(parts.testName)}, async ({ agentSession }) => {`,
    "  // The model's answers in the run, one per model call.",
    `  const ${model.variable} = ${model.factory}(${tsLiteral(incident.steps as unknown as JsonValue, 2, model.variable.length + model.factory.length + 10)})`,
    "  // The tools' results in the run, call by call.",
    `  const tools = scriptedTools(${tsLiteral(toolsOf(incident), 2, 28)})`,
    '',
    `  const s = await agentSession(() => ${call}(input, { ${model.variable}, tools }))`,
    '',
    `  expect(s).toMatchFlow(${tsLiteral(incident.flow, 2, 22)})`,
  ]
  if (incident.offered !== undefined) {
    lines.push(
      '  // The tools each model call offered in the run.',
      `  expect(${model.variable}.requests.map((request) => request.tools.map((tool) => tool.name).sort())).toEqual(${tsLiteral(incident.offered, 2, 90)})`,
    )
  }
  lines.push(
    '  // The run is the golden. The scripted model answers as whichever model the agent asks for, so model names are not compared.',
    "  expect(s).toMatchGolden({ ignore: ['model'] })",
    '})',
  )
  return lines
}

/** The test file's text (formatted, ending with a newline). */
export function renderIncidentTest(parts: TestFileParts): string {
  return [
    ...headerOf(parts),
    ...importsOf(parts),
    '',
    "// The agent's input in the run: the first user message of its first model call.",
    `const input = ${tsLiteral(parts.incident.input, 0, 14)}`,
    '',
    ...bodyOf(parts),
    '',
  ].join('\n')
}
