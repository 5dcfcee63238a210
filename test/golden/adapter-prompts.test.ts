import { describe, expect, it } from 'vitest'
import { session } from '../../src/entries/index.js'
import { matchGolden } from '../../src/entries/golden.js'
import { json, openaiClient } from '../adapters/openai/helpers.js'
import { instrumentedClient, MODEL } from '../adapters/anthropic/helpers.js'
import { fixtureJson, inOrder, startCannedServer } from '../helpers/canned-server.js'
import { tempDir } from '../helpers/temp-dir.js'

// The system prompt as the real SDKs send it, recorded by the adapters: a golden fails when it changes.

describe('goldens of adapter-recorded runs compare the system prompt', () => {
  it('fails on a changed Responses API `instructions`, shown word by word', async () => {
    const server = await startCannedServer(inOrder(json('responses/final-answer.json'), json('responses/final-answer.json')))
    const client = openaiClient(server)
    const traceDir = tempDir()
    const ask = (instructions: string) =>
      session('weather', { traceDir }, async () => {
        await client.responses.create({ model: 'gpt-4.1', instructions, input: 'What is the weather in Paris?' })
      })
    expect(matchGolden((await ask('You are a weather assistant. Answer in one short sentence.')).trace, { traceDir, update: 'new' }).written).toBe('created')
    const result = matchGolden((await ask('You are a weather assistant. Answer in two short sentences.')).trace, { traceDir, update: 'new' })
    expect(result.pass).toBe(false)
    expect(result.message).toContain(
      [
        'Turn 0 (expected) ↔ Turn 0 (actual)',
        '  ~ system_prompt: "You are a weather assistant. Answer in one short sentence." → "You are a weather assistant. Answer in two short sentences."',
      ].join('\n'),
    )
  })

  it('fails on a changed Anthropic `system` (text blocks), and not on its cache_control', async () => {
    const answer = fixtureJson('anthropic/weather-final.json')
    const server = await startCannedServer(inOrder(...Array.from({ length: 3 }, () => ({ json: answer }))))
    const client = instrumentedClient(server)
    const traceDir = tempDir()
    const ask = (rules: string, cache: boolean) =>
      session('weather', { traceDir }, async () => {
        await client.messages.create({
          model: MODEL,
          max_tokens: 100,
          system: [
            { type: 'text', text: 'You are a weather assistant.', ...(cache ? { cache_control: { type: 'ephemeral' as const } } : {}) },
            { type: 'text', text: rules },
          ],
          messages: [{ role: 'user', content: 'What is the weather in Paris?' }],
        })
      })
    matchGolden((await ask('Be brief.', false)).trace, { traceDir, update: 'new' })
    expect(matchGolden((await ask('Be brief.', true)).trace, { traceDir, update: 'new' }).pass).toBe(true)
    const result = matchGolden((await ask('Be thorough.', false)).trace, { traceDir, update: 'new' })
    expect(result.diff?.changes.map(({ subject, expected, actual }) => ({ subject, expected, actual }))).toEqual([
      { subject: 'system_prompt', expected: 'You are a weather assistant.\nBe brief.', actual: 'You are a weather assistant.\nBe thorough.' },
    ])
  })
})
