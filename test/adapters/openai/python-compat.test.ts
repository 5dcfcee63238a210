import { execFileSync, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { session } from '../../../src/entries/index.js'
import { inOrder, startCannedServer } from '../../helpers/canned-server.js'
import { tempDir } from '../../helpers/temp-dir.js'
import { json, openaiClient, sse } from './helpers.js'
import { chatTools, runChatAgent, runResponsesAgent } from './weather-agent.js'

const LOADER = join(import.meta.dirname, '../../compat/load_like_reagent_flow_05.py')
const hasPython = spawnSync('python3', ['--version']).status === 0

describe.runIf(hasPython)('traces recorded through instrumentOpenAI, read the way reagent-flow 0.5 reads them', () => {
  it('load: tool loops of both APIs, a broken stream, a failed call', async () => {
    const traceDir = tempDir()
    const server = await startCannedServer(
      inOrder(
        json('chat/tool-call.json'),
        json('chat/final-answer.json'),
        json('responses/function-call.json'),
        json('responses/final-answer.json'),
        sse('chat/stream-error.sse'),
        json('error-400.json', 400),
      ),
    )
    const client = openaiClient(server)

    const paths = [
      (await session('chat-loop', { traceDir }, () => runChatAgent(client, 'Weather in Paris?'))).path,
      (await session('responses-loop', { traceDir }, () => runResponsesAgent(client, 'Weather in Paris?'))).path,
      (
        await session('failures', { traceDir }, async () => {
          const stream = await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Hi' }], tools: chatTools, stream: true })
          await (async () => {
            for await (const _chunk of stream);
          })().catch(() => undefined)
          await client.chat.completions.create({ model: 'gpt-5-turbo', messages: [{ role: 'user', content: 'Hi' }] }).catch(() => undefined)
        })
      ).path,
    ]

    const output = execFileSync('python3', [LOADER, ...(paths as string[])], { encoding: 'utf8' })
    expect(output.trim().split('\n')).toEqual(paths.map((path) => `ok ${path} (2 turns; skipped: error, session_id, status, tool_sets, user_id)`))
  })
})
