import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { expect, it } from 'vitest'
import { session } from '../../src/index.js'
import { inOrder, startCannedServer } from '../helpers/canned-server.js'
import { tempDir } from '../helpers/temp-dir.js'
import { json, openaiClient } from '../adapters/openai/helpers.js'

it('scratch', async () => {
  const dir = tempDir()
  const server = await startCannedServer(inOrder(json('chat/tool-call.json')))
  const client = openaiClient(server)
  const ask = () => client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Weather?' }] })
  const a = await session('s1', { traceDir: dir, replay: 'record' }, ask)
  await server.close()
  console.log(readdirSync(dir), readFileSync(join(dir, 's1.recording.json'), 'utf8'))
  const b = await session('s1', { traceDir: dir, replay: 'replay' }, ask)
  console.log(JSON.stringify(b.trace.turns[0]!.llm_call))
  expect(b.output).toEqual(a.output)
  const c = await session('s1', { traceDir: dir, replay: 'replay' }, () => client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Weather in Rome?' }] })).catch((e) => e)
  console.log(String(c))
})
