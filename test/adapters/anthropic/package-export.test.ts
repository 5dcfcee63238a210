import { execFile } from 'node:child_process'
import { promisify } from 'node:util'
import { expect, it } from 'vitest'
import { fixtureJson, inOrder, startCannedServer } from '../../helpers/canned-server.js'

const root = new URL('../../../', import.meta.url)

it('ships as "reagent-flow/anthropic" (built dist/), recording into sessions of "reagent-flow"', async () => {
  const server = await startCannedServer(inOrder({ json: fixtureJson('anthropic/weather-tool-use.json') }))
  const code = `
    import Anthropic from '@anthropic-ai/sdk'
    import { session } from 'reagent-flow'
    import { instrumentAnthropic } from 'reagent-flow/anthropic'
    const client = instrumentAnthropic(new Anthropic({ baseURL: process.env.BASE_URL, apiKey: 'sk-ant-test-key', maxRetries: 0 }))
    const s = await session('shipped', { save: false }, () =>
      client.messages.create({ model: 'claude-sonnet-4-6', max_tokens: 64, messages: [{ role: 'user', content: 'Weather in Paris?' }] }))
    console.log(JSON.stringify(s.trace.turns.map((turn) => turn.llm_call.tool_calls.map((call) => call.name))))
  `
  const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', code], {
    cwd: root,
    env: { ...process.env, BASE_URL: server.url },
    encoding: 'utf8',
  })
  expect(stdout).toBe('[["get_weather"]]\n')
})
