/**
 * Conversations (issue 26): a 10-exchange conversation between a simulated
 * user played by a model and a support agent on the OpenAI SDK, replayed
 * offline from its two recordings (the agent's and the user's, no server),
 * against the same conversation with both models scripted (scriptedFetch:
 * the same 21 model calls through the SDK, answered by a script instead of
 * a recording): what replaying both sides costs over scripting both.
 * Target: 1.3x. A second row sets it against a user with no model at all
 * (its ten messages in a list): what a model-played user costs. Every side
 * writes its traces, as a test run does.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import OpenAI from 'openai'
import { scriptedFetch, type Script } from 'reagent-flow/fake'
import { instrumentOpenAI } from 'reagent-flow/openai'
import { chatHistory, conversation, simulatedUser, type Transcript } from 'reagent-flow/simulate'
import type { BenchSuite } from '../run.js'
import { compareAsync } from '../lib/measure.js'
import type { Row } from '../lib/report.js'

const EXCHANGES = 10
const USER_LINES = Array.from({ length: EXCHANGES }, (_, i) => `Question ${i + 1} about my order 42: what happens next?`)
const GOAL = 'Find out what happens next with order 42'

const agentScript = (): Script =>
  Array.from({ length: EXCHANGES }, (_, i) => ({ text: `Answer ${i + 1}: your order 42 is on its way.`, usage: { inputTokens: 200, outputTokens: 20 } }))
const userScript = (): Script => [
  ...USER_LINES.map((text) => ({ text, usage: { inputTokens: 300, outputTokens: 15 } })),
  { toolCalls: [{ name: 'end_conversation', arguments: { goal_met: true, reason: 'all answered' } }] },
]

const client = (fetch?: typeof globalThis.fetch): OpenAI =>
  instrumentOpenAI(new OpenAI({ baseURL: 'http://127.0.0.1:9/v1', apiKey: 'sk-bench', maxRetries: 0, ...(fetch === undefined ? {} : { fetch }) }))

/** The agent: one model call per reply, the conversation as its history. */
function agent(openai: OpenAI) {
  return async (_message: string, transcript: Transcript): Promise<string> => {
    const { choices } = await openai.chat.completions.create({
      model: 'gpt-4o-mini',
      messages: [{ role: 'system', content: 'You are the support desk of Acme.' }, ...chatHistory(transcript)],
    })
    return choices[0]!.message.content ?? ''
  }
}

export const suite: BenchSuite = {
  name: 'conversation',
  async run() {
    const dir = mkdtempSync(join(tmpdir(), 'reagent-bench-conversation-'))
    try {
      const recordingUser = simulatedUser({ goal: GOAL, model: { client: client(scriptedFetch(userScript())), model: 'gpt-4o-mini' } })
      await conversation(
        'bench-conversation',
        { user: recordingUser, maxTurns: EXCHANGES, traceDir: dir, replay: 'record' },
        agent(client(scriptedFetch(agentScript()))),
      )
      const offline = client()
      const replayedUser = simulatedUser({ goal: GOAL, model: { client: offline, model: 'gpt-4o-mini' } })
      const replayed = () => conversation('bench-conversation', { user: replayedUser, maxTurns: EXCHANGES, traceDir: dir, replay: 'replay' }, agent(offline))
      const scripted = await compareAsync(
        replayed,
        () => {
          const user = simulatedUser({ goal: GOAL, model: { client: client(scriptedFetch(userScript())), model: 'gpt-4o-mini' } })
          return conversation('bench-conversation-scripted', { user, maxTurns: EXCHANGES, traceDir: dir }, agent(client(scriptedFetch(agentScript()))))
        },
        { runs: 21, warmup: 5 },
      )
      const listed = await compareAsync(
        replayed,
        () =>
          conversation(
            'bench-conversation-listed',
            { user: simulatedUser({ model: USER_LINES }), maxTurns: EXCHANGES, traceDir: dir },
            agent(client(scriptedFetch(agentScript()))),
          ),
        { runs: 21, warmup: 5 },
      )
      const suite = `a ${EXCHANGES}-exchange conversation (OpenAI SDK agent, simulated user), per conversation`
      const name = "replayed: the agent's and the user's model calls from their recordings"
      const rows: Row[] = [
        {
          suite,
          name,
          value: scripted.ours.medianMs,
          unit: 'ms',
          baseline: scripted.baseline.medianMs,
          baselineName: 'the user and the agent on scripted models',
          target: { max: 1.3, of: 'ratio' },
        },
        {
          suite,
          name,
          value: listed.ours.medianMs,
          unit: 'ms',
          baseline: listed.baseline.medianMs,
          baselineName: 'a listed user (no model), the agent on a scripted model',
        },
      ]
      return rows
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  },
}
