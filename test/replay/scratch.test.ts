import { createOpenAI } from '@ai-sdk/openai'
import { generateText, streamText, wrapLanguageModel } from 'ai'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { reagentMiddleware } from '../../adapters/ai-sdk/index.js'
import { session } from '../../src/index.js'
import { fixtureJson, fixtureText, inOrder, startCannedServer } from '../helpers/canned-server.js'
import { tempDir } from '../helpers/temp-dir.js'

it('scratch', async () => {
  const dir = tempDir()
  const server = await startCannedServer(inOrder({ sse: fixtureText('openai/chat/final-answer.sse') }, { json: fixtureJson('openai/chat/final-answer.json') }))
  const openai = createOpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test-key' })
  const model = wrapLanguageModel({ model: openai.chat('gpt-4o'), middleware: reagentMiddleware() })
  const run = async () => [await streamText({ model, prompt: 'Weather in Paris?' }).text, (await generateText({ model, prompt: 'Weather?' })).text]
  const a = await session('s1', { traceDir: dir, replay: 'record' }, run)
  await server.close()
  console.log(readFileSync(join(dir, 's1.recording.json'), 'utf8').slice(0, 3000))
  const b = await session('s1', { traceDir: dir, replay: 'replay' }, run)
  expect(b.output).toEqual(a.output)
  console.log(JSON.stringify(b.trace.turns.map((t) => t.llm_call)))
})
