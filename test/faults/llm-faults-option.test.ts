import { describe, expect, it } from 'vitest'
import { session } from '../../src/entries/index.js'

const MODEL_FORM = 'A model fault is { llm: true, status, times?, after?, model? }, e.g. { llm: true, status: 429, times: 1 }.'
const STATUSES = "429, 500, 503, 529 or 'timeout'"

describe('the faults option: model faults are checked', () => {
  const open = (faults: unknown): Promise<unknown> => session('checked', { save: false, faults } as never, () => undefined)

  it('accepts every status, with times, after and model', async () => {
    const faults = [429, 500, 503, 529, 'timeout'].map((status, at) => ({ llm: true, status, times: at + 1, after: at, model: `model-${at}` }))
    await expect(open(faults)).resolves.toMatchObject({ status: 'completed' })
  })

  it.each([
    [[{ status: 429 }], TypeError, `session() option "faults[0]" has "status" but not llm: true. ${MODEL_FORM}`],
    [[{ model: 'gpt-4o', error: 'e' }], TypeError, `session() option "faults[0]" has "model" but not llm: true. ${MODEL_FORM}`],
    [[{ llm: true, status: 429, tool: 'charge_card' }], TypeError, `session() option "faults[0]" has an unknown key "tool". ${MODEL_FORM}`],
    [[{ llm: true, status: 500, retries: 3 }], TypeError, `session() option "faults[0]" has an unknown key "retries". ${MODEL_FORM}`],
    [[{ llm: false, status: 429 }], TypeError, 'session() option "faults[0].llm" must be true (the fault fails model calls), got false.'],
    [[{ llm: 'yes', status: 429 }], TypeError, 'session() option "faults[0].llm" must be true (the fault fails model calls), got the string "yes".'],
    [[{ llm: true }], TypeError, `session() option "faults[0].status" must be how the model calls fail: ${STATUSES}; got undefined.`],
    [[{ llm: true, status: 404 }], RangeError, `session() option "faults[0].status" must be how the model calls fail: ${STATUSES}; got 404.`],
    [[{ llm: true, status: '429' }], TypeError, `session() option "faults[0].status" must be how the model calls fail: ${STATUSES}; got the string "429".`],
    [
      [{ llm: true, status: 'Timeout' }],
      TypeError,
      `session() option "faults[0].status" must be how the model calls fail: ${STATUSES}; got the string "Timeout".`,
    ],
    [
      [{ llm: true, status: 429, times: 0 }],
      RangeError,
      'session() option "faults[0].times" must be a whole number of at least 1 (how many calls fail), got 0.',
    ],
    [
      [
        { tool: 'a', error: 'e' },
        { llm: true, status: 500, after: -1 },
      ],
      RangeError,
      'session() option "faults[1].after" must be a whole number of at least 0 (how many calls go through before the first failure), got -1.',
    ],
    [
      [{ llm: true, status: 500, model: '' }],
      TypeError,
      'session() option "faults[0].model" must be the model whose calls fail (a non-empty string, as the request names it), got the string "".',
    ],
    [
      [{ llm: true, status: 500, model: ['gpt-4o'] }],
      TypeError,
      'session() option "faults[0].model" must be the model whose calls fail (a non-empty string, as the request names it), got an array.',
    ],
  ])('rejects %j with a message naming the fault and the valid values', async (faults, kind, message) => {
    await expect(open(faults)).rejects.toThrow(new kind(message))
  })
})
