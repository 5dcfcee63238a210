/**
 * Tried as an attacker would: every secret form of the corpus planted in
 * every field a user or an adapter fills, written by session() with the
 * default redaction (run file and golden), and through the real OpenAI
 * adapter. No planted secret may be in the bytes on disk, and the fields
 * the allow-list keeps readable must be written exactly as recorded.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { instrumentOpenAI } from '../../src/entries/openai.js'
import { session, type Session } from '../../src/entries/index.js'
import { tracePath } from '../../src/entries/files.js'
import { settleHandedOff } from '../../src/session/handed-off.js'
import type { JsonValue } from '../../src/trace/types.js'
import { fixtureJson, startCannedServer, inOrder } from '../helpers/canned-server.js'
import { tempDir } from '../helpers/temp-dir.js'
import { captureWarnings } from '../helpers/warnings.js'
import { leaksIn, randomish, secretForms, type SecretForm } from './corpus.js'

// An environment secret with no recognisable shape: only its literal value
// can find it. Set before the first redaction of this file's module graph.
const ENV_SECRET = randomish(77, 24).toLowerCase()
process.env.REAGENT_CORPUS_DEPLOY_TOKEN = ENV_SECRET

const forms: SecretForm[] = [...secretForms(1), { name: 'environment secret', value: `deploying with ${ENV_SECRET} now`, secrets: [ENV_SECRET] }]

const textOf = (value: JsonValue): string => (typeof value === 'string' ? value : JSON.stringify(value))

/** Fields that look secret-ish by name and must stay readable: the allow-list at work. */
const READABLE_METADATA = {
  max_tokens: 256,
  token_count: 12,
  tokenizer: 'cl100k_base',
  prompt_tokens: 10,
  completion_tokens: 5,
  cache_read_tokens: 2,
  reasoning_tokens: 1,
  token_usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
  nextPageToken: 'page-3',
  auth_type: 'oauth2',
  password_min_length: 12,
  public_key: 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5 ci@example',
}
const TOKEN_USAGE = {
  input_tokens: 10,
  output_tokens: 5,
  total_tokens: 15,
  input_tokens_details: { cached_tokens: 2 },
  output_tokens_details: { reasoning_tokens: 1 },
}

/** Where each form is planted: one session per field, every form in it. */
const FIELDS: Record<string, (s: Session, form: SecretForm) => void> = {
  'messages content': (s, f) => void s.logLlmCall({ messages: [{ role: 'user', content: f.value }], tokenUsage: TOKEN_USAGE }),
  'messages content as JSON text': (s, f) => void s.logLlmCall({ messages: [{ role: 'tool', content: textOf(f.value) }], tokenUsage: TOKEN_USAGE }),
  'tool arguments': (s, f) => {
    s.logLlmCall({ toolCalls: [{ name: 'call_api', arguments: { input: f.value } }], tokenUsage: TOKEN_USAGE })
    s.logToolResult('call_api', { result: 'ok' })
  },
  'tool arguments as a JSON string': (s, f) => {
    s.logLlmCall({ toolCalls: [{ name: 'call_api', arguments: JSON.stringify({ input: f.value }) }] })
    s.logToolResult('call_api', { result: 'ok' })
  },
  'tool results': (s, f) => {
    s.logLlmCall({ toolCalls: [{ name: 'fetch', arguments: {} }] })
    s.logToolResult('fetch', { result: f.value })
  },
  'tool errors': (s, f) => {
    s.logLlmCall({ toolCalls: [{ name: 'fetch', arguments: {} }] })
    s.logToolResult('fetch', { error: textOf(f.value) })
  },
  'response text': (s, f) => void s.logLlmCall({ responseText: textOf(f.value) }),
  model: (s, f) => void s.logLlmCall({ responseText: 'ok', model: textOf(f.value) }),
}

/** Fields given when the session opens. */
const OPTIONS: Record<string, (forms: readonly SecretForm[]) => Record<string, unknown>> = {
  metadata: (all) => ({ metadata: { ...READABLE_METADATA, ...Object.fromEntries(all.map((f) => [f.name, f.value])) } }),
  'handoff context': (all) => ({ handoffContext: Object.fromEntries(all.map((f) => [f.name, f.value])) }),
  'a key name': (all) => ({ metadata: Object.fromEntries(all.map((f, i) => [textOf(f.value), i])) }),
}

function writtenFiles(s: Session): string {
  return readFileSync(s.path!, 'utf8')
}

describe('the leak corpus', () => {
  it('has a secret form for each shape the redaction knows, each with its own secrets', () => {
    const secrets = forms.flatMap((f) => f.secrets)
    expect(forms.length).toBeGreaterThanOrEqual(75)
    expect(new Set(secrets).size).toBe(secrets.length)
  })

  describe.each(Object.keys(FIELDS))('planted in %s', (field) => {
    it.each([false, true])('reaches neither the run file nor the golden (golden: %s)', async (golden) => {
      const traceDir = tempDir()
      const s = await session(`corpus-${field.replace(/\W+/g, '-')}`, { traceDir, golden, sessionId: 'conversation-42', metadata: READABLE_METADATA }, (s) => {
        for (const form of forms) FIELDS[field]!(s, form)
      })
      const bytes = writtenFiles(s)
      expect(leaksIn(bytes, forms)).toEqual([])
      const written = JSON.parse(bytes)
      expect(written.session_id).toBe('conversation-42')
      expect(written.metadata).toEqual(READABLE_METADATA)
      for (const turn of written.turns) expect(turn.llm_call.token_usage).toEqual(s.trace.turns[turn.index]!.llm_call.token_usage)
    })
  })

  it.each(Object.keys(OPTIONS))('reaches no file when planted in the %s', async (field) => {
    const traceDir = tempDir()
    const s = await session(`corpus-option-${field.replace(/\W+/g, '-')}`, { traceDir, ...OPTIONS[field]!(forms) }, (s) => {
      s.logLlmCall({ responseText: 'done', tokenUsage: TOKEN_USAGE })
    })
    const bytes = writtenFiles(s)
    expect(leaksIn(bytes, forms)).toEqual([])
    if (field === 'metadata') expect(JSON.parse(bytes).metadata).toMatchObject(READABLE_METADATA)
  })

  it('reaches no file through the error a session fails with', async () => {
    const traceDir = tempDir()
    const failing = session('corpus-error', { traceDir }, () => {
      throw new Error(forms.map((f) => textOf(f.value)).join('\n'))
    })
    await expect(failing).rejects.toThrow(Error)
    expect(leaksIn(readFileSync(tracePath('corpus-error', { traceDir }), 'utf8'), forms)).toEqual([])
  })

  it('writes every planted secret with redact: false (so the checks above can fail)', async () => {
    const traceDir = tempDir()
    const s = await session('corpus-raw', { traceDir, redact: false, metadata: Object.fromEntries(forms.map((f) => [f.name, f.value])) }, (s) => {
      for (const form of forms) s.logLlmCall({ responseText: textOf(form.value) })
    })
    expect(leaksIn(writtenFiles(s), forms)).toHaveLength(forms.length)
  })

  it('keeps every planted secret in the in-memory trace, for assertions', async () => {
    const traceDir = tempDir()
    const s = await session('corpus-memory', { traceDir }, (s) => {
      for (const form of forms) s.logLlmCall({ responseText: textOf(form.value) })
    })
    expect(leaksIn(JSON.stringify(s.trace), forms)).toHaveLength(forms.length)
  })
})

describe('the leak corpus through the OpenAI adapter', () => {
  it('keeps a tool output JSON string out of the messages the agent sends back', async () => {
    const server = await startCannedServer(inOrder({ json: fixtureJson('openai/chat/tool-call.json') }, { json: fixtureJson('openai/chat/final-answer.json') }))
    const client = instrumentOpenAI(new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test-key', maxRetries: 0 }))
    // What a leaky tool returns: structure and text, every form of the corpus.
    const output = JSON.stringify({
      password: forms[0]!.secrets[0],
      api_key: forms[1]!.secrets[0],
      found: Object.fromEntries(forms.map((f) => [f.name, f.value])),
    })
    const traceDir = tempDir()
    const s = await session('corpus-openai', { traceDir }, async () => {
      const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: 'user', content: `Weather in Rome? ${textOf(forms[2]!.value)}` }]
      const first = await client.chat.completions.create({ model: 'gpt-4o', messages })
      const call = first.choices[0]!.message.tool_calls![0]!
      messages.push(first.choices[0]!.message, { role: 'tool', tool_call_id: call.id, content: output })
      await client.chat.completions.create({ model: 'gpt-4o', messages })
    })
    // The secrets did travel to the model: the request bodies have them.
    expect(JSON.stringify(server.requests[1]!.body)).toContain(forms[0]!.secrets[0])
    const bytes = writtenFiles(s)
    expect(leaksIn(bytes, forms)).toEqual([])
    const written = JSON.parse(bytes)
    expect(written.turns[1].llm_call.messages.at(-1).content).toMatch(/^\{"password":"\[REDACTED\]","api_key":"\[REDACTED\]","found":\{/)
    expect(written.turns[0].tool_results[0].result.password).toBe('[REDACTED]')
  })
})

/** The forms that can be part of a session's name: one line of text. */
const nameForms = forms.filter((f) => typeof f.value === 'string' && !/[\r\n]/.test(f.value))

describe('the leak corpus in session names', () => {
  it('reaches neither the recording nor the trace file of a session named with it', async () => {
    const server = await startCannedServer(() => ({ json: fixtureJson('openai/chat/final-answer.json') }))
    const client = instrumentOpenAI(new OpenAI({ baseURL: `${server.url}/v1`, apiKey: 'sk-test-key', maxRetries: 0 }))
    const traceDir = tempDir()
    for (const form of nameForms) {
      await session(`deploy-bot ${form.value as string}`, { traceDir, replay: 'record' }, async () => {
        await client.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'Deploy?' }] })
      })
    }
    const names = readdirSync(traceDir)
    const recordings = names.filter((name) => name.endsWith('.recording.json'))
    expect(recordings.length).toBeGreaterThanOrEqual(nameForms.length / 2)
    for (const name of names.filter((name) => name.endsWith('.json'))) {
      const bytes = readFileSync(join(traceDir, name), 'utf8')
      expect({ name, leaks: leaksIn(bytes, forms) }).toEqual({ name, leaks: [] })
      expect(JSON.parse(bytes).name).toMatch(/^deploy-bot /)
    }
  })

  it('reaches no warning about the session (the ledger it could not report to)', async () => {
    const warnings = captureWarnings()
    for (const [i, form] of nameForms.entries()) {
      // A port nothing listens on: the report fails, and says so once per ledger URL.
      await session(`deploy-bot ${form.value as string}`, { save: false, ledger: { url: `http://127.0.0.1:9/ledger-${i}`, timeoutMs: 2000 } }, () => undefined)
    }
    await settleHandedOff(10_000)
    const seen = (await warnings.seen()).filter((w) => w.code === 'REAGENT_LEDGER')
    expect(seen).toHaveLength(nameForms.length)
    expect(seen[0]!.message).toMatch(/^reagent-flow: session "deploy-bot .*": the run was not reported to the ledger at http:\/\/127\.0\.0\.1:9\/ledger-0: /)
    expect(leaksIn(seen.map((w) => w.message).join('\n'), forms)).toEqual([])
  })
})
