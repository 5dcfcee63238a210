import { afterEach, describe, expect, it } from 'vitest'
import { resolveReplayMode } from '../../src/replay/mode.js'
import { setProjectDefaultsReader } from '../../src/replay/project-defaults.js'
import { session, traceTool } from '../../src/entries/index.js'
import { tempDir } from '../helpers/temp-dir.js'

describe('the replay mode', () => {
  it.each([
    [undefined, {}, 'off'],
    ['record', {}, 'record'],
    ['auto', {}, 'auto'],
    ['auto', { CI: 'true' }, 'replay'],
    ['auto', { CI: 'false' }, 'auto'],
    ['record', { CI: '1' }, 'record'],
    [undefined, { REAGENT_REPLAY: 'replay' }, 'replay'],
    ['off', { REAGENT_REPLAY: 'auto', CI: 'true' }, 'replay'],
    ['replay', { REAGENT_REPLAY: 'record', CI: 'true' }, 'record'],
    ['replay', { REAGENT_REPLAY: '' }, 'replay'],
    ['prune', {}, 'prune'],
    ['prune', { CI: 'true' }, 'replay'],
    ['replay', { REAGENT_REPLAY: 'prune', CI: '1' }, 'replay'],
  ] as const)('option %s with %j is %s', (option, env, expected) => {
    expect(resolveReplayMode(option, env)).toBe(expected)
  })

  it('refuses a REAGENT_REPLAY that is not a mode, naming the valid ones', () => {
    expect(() => resolveReplayMode(undefined, { REAGENT_REPLAY: 'on' })).toThrow(
      new TypeError(
        'REAGENT_REPLAY="on" is not a replay mode. Use one of: off (call the model), record (call it and save the calls), ' +
          'replay (answer every call from the recording), auto (answer what is recorded, record the rest), ' +
          'prune (as auto, and drop the recorded calls no longer made).',
      ),
    )
  })
})

describe('session() options of record and replay', () => {
  it.each([
    ['replay', 'always', `session() option "replay" must be 'off', 'record', 'replay', 'auto' or 'prune', got the string "always".`],
    ['replay', true, `session() option "replay" must be 'off', 'record', 'replay', 'auto' or 'prune', got boolean.`],
    ['strict', 'yes', 'session() option "strict" must be true or false, got string.'],
    ['replayTools', 1, 'session() option "replayTools" must be true or false, got the number 1.'],
  ])('refuses %s: %j', async (option, value, message) => {
    let ran = false
    await expect(session('x', { [option]: value } as never, () => (ran = true))).rejects.toThrow(new TypeError(message))
    expect(ran).toBe(false)
  })
})

describe("the project's defaults (the vitest config's test.provide.reagentFlow)", () => {
  afterEach(() => setProjectDefaultsReader(() => undefined))

  it('apply to a session that sets none; its own option comes first', async () => {
    setProjectDefaultsReader(() => ({ replay: 'replay', replayTools: true }))
    const dir = tempDir()
    let runs = 0
    const stamp = traceTool('stamp', () => `run ${++runs}`)
    await session('stamps', { traceDir: dir, replay: 'record' }, () => stamp())

    expect((await session('stamps', { traceDir: dir }, () => stamp())).output).toBe('run 1')
    expect((await session('stamps', { traceDir: dir, replayTools: false }, () => stamp())).output).toBe('run 2')
  })

  it.each([
    [{ replayTool: true }, 'Unknown key "replayTool" in the vitest config\'s test.provide.reagentFlow. Valid keys: replay, replayTools, strict.'],
    [{ replay: 'always' }, "the vitest config's test.provide.reagentFlow.replay must be one of 'off', 'record', 'replay', 'auto', 'prune', got \"always\"."],
    [{ strict: 'yes' }, 'the vitest config\'s test.provide.reagentFlow.strict must be true or false, got "yes".'],
    ['auto', "the vitest config's test.provide.reagentFlow must be an object such as { replay: 'auto' }, got \"auto\"."],
  ])('refuses %j before the session runs', async (defaults, message) => {
    setProjectDefaultsReader(() => defaults)
    let ran = false
    await expect(session('x', { save: false }, () => (ran = true))).rejects.toThrow(new TypeError(message))
    expect(ran).toBe(false)
  })
})
