import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { session, traceTool } from '../../src/entries/index.js'
import { readJournal } from '../../src/storage/index.js'
import { fixtureJson, inOrder, startCannedServer } from '../helpers/canned-server.js'
import { tempDir } from '../helpers/temp-dir.js'
import { json, openaiClient } from '../adapters/openai/helpers.js'

describe('the journal keeps the steps a run completes, in every mode', () => {
  it('a model call (its request in normal form, its raw answer) and a traceTool run, read back with the run', async () => {
    const dir = tempDir()
    const server = await startCannedServer(inOrder(json('chat/tool-call.json')))
    const client = openaiClient(server)
    const lookup = traceTool('lookup_order', async ({ id }: { id: string }) => ({ id, status: 'shipped' }))
    await session('job', { traceDir: dir }, async () => {
      await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Where is order 42?' }], user: 'u-1' })
      await lookup({ id: '42' })
      throw new Error('stop here')
    }).catch(() => undefined)

    const [name] = readdirSync(dir).filter((file) => file.endsWith('.journal.jsonl'))
    const journal = readJournal(join(dir, name!))
    expect(journal.steps).toEqual([
      {
        kind: 'exchange',
        endpoint: 'openai POST /chat/completions',
        request: { messages: [{ content: 'Where is order 42?', role: 'user' }], model: 'gpt-4o' },
        response: { status: 200, body: fixtureJson('openai/chat/tool-call.json') },
      },
      { kind: 'tool', name: 'lookup_order', input: { id: '42' }, async: true, result: { id: '42', status: 'shipped' } },
    ])
    // The trace read from the journal is the run's, as before: steps are records of their own.
    expect(journal.trace.turns).toHaveLength(1)
    expect(
      readFileSync(join(dir, name!), 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => (JSON.parse(line) as { kind: string }).kind),
    ).toEqual(['open', 'exchange', 'turn', 'result', 'tool', 'close'])
  })
})
