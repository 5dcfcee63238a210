import { describe, expect, it } from 'vitest'
import { assertCalledWith } from '../../src/entries/index.js'
import { buildTrace, failureOf } from '../helpers/trace-builder.js'

const refund = buildTrace('refund-agent', [
  { calls: [{ name: 'issue_refund', args: { order_id: '41', amount: 5, currency: 'EUR' }, result: { ok: true } }] },
  {
    calls: [{ name: 'issue_refund', args: { order_id: '42', amount: 19.99, currency: 'EUR', meta: { reason: 'damaged', tags: ['a'] } }, result: { ok: true } }],
  },
])

describe('assertCalledWith()', () => {
  it('passes when some call has all the given arguments, ignoring the others', () => {
    expect(() => assertCalledWith(refund, 'issue_refund', { order_id: '42' })).not.toThrow()
    expect(() => assertCalledWith(refund, 'issue_refund', { order_id: '42', meta: { reason: 'damaged', tags: ['a'] } })).not.toThrow()
    expect(() => assertCalledWith(refund, 'issue_refund', {})).not.toThrow()
  })

  it('compares nested values deeply and exactly', () => {
    expect(failureOf(() => assertCalledWith(refund, 'issue_refund', { meta: { reason: 'damaged' } })).assertion).toBe(
      '"issue_refund" was called 2 time(s) but none matched expected args. Closest mismatch on key(s): ["meta"]. Expected: {"meta": {"reason": "damaged"}}',
    )
  })

  it('accepts vitest asymmetric matchers anywhere in the expected arguments', () => {
    expect(() =>
      assertCalledWith(refund, 'issue_refund', {
        order_id: expect.stringMatching(/^4\d$/),
        amount: expect.any(Number),
        meta: expect.objectContaining({ tags: expect.arrayContaining(['a']) }),
      }),
    ).not.toThrow()
    expect(() => assertCalledWith(refund, 'issue_refund', { amount: expect.closeTo(19.99, 2), currency: expect.stringContaining('EU') })).not.toThrow()
    expect(() => assertCalledWith(refund, 'issue_refund', { meta: { reason: expect.anything(), tags: [expect.any(String)] } })).not.toThrow()
  })

  it('fails naming the closest call, its mismatching keys with expected and actual values, and sets a diff', () => {
    const expected = { order_id: '42', amount: 20, refund_to: 'card' }
    const error = failureOf(() => assertCalledWith(refund, 'issue_refund', expected))
    expect(error.assertion).toBe(
      '"issue_refund" was called 2 time(s) but none matched expected args. ' +
        'Closest mismatch on key(s): ["amount", "refund_to"]. Expected: {"order_id": "42", "amount": 20, "refund_to": "card"}',
    )
    expect(error.message).toContain(
      '\nPROBABLE CAUSE: closest call: issue_refund({"order_id":"42","amount":19.99,"currency":"EUR","meta":{"reason":"damaged","tags":["a"]}}) in turn 1; ' +
        'amount: expected 20, got 19.99; refund_to: expected "card", got missing',
    )
    expect(error.expected).toBe(expected)
    expect(error.actual).toEqual({ order_id: '42', amount: 19.99, currency: 'EUR', meta: { reason: 'damaged', tags: ['a'] } })
    expect(error.showDiff).toBe(true)
  })

  it('prints matchers in the failure the way vitest does', () => {
    const error = failureOf(() => assertCalledWith(refund, 'issue_refund', { order_id: expect.stringContaining('43'), amount: expect.any(String) }))
    expect(error.assertion).toBe(
      '"issue_refund" was called 2 time(s) but none matched expected args. ' +
        'Closest mismatch on key(s): ["order_id", "amount"]. Expected: {"order_id": StringContaining "43", "amount": Any<String>}',
    )
  })

  it('takes the earliest call when two are equally close', () => {
    const error = failureOf(() => assertCalledWith(refund, 'issue_refund', { order_id: '99' }))
    expect(error.message).toContain(
      'PROBABLE CAUSE: closest call: issue_refund({"order_id":"41","amount":5,"currency":"EUR"}) in turn 0; order_id: expected "99", got "41"',
    )
  })

  it('shows where a long string argument differs, word by word, under the cause', () => {
    const body = Array.from({ length: 12 }, (_, i) => `Line ${i} of the email to the customer.`).join(' ')
    const email = buildTrace('email-agent', [{ calls: [{ name: 'send_email', args: { to: 'a@b.c', body }, result: { ok: true } }] }])
    const error = failureOf(() => assertCalledWith(email, 'send_email', { body: body.replace('Line 6 of the email', 'Line 6 of an email') }))
    const cause = error.message.slice(error.message.indexOf('PROBABLE CAUSE:'))
    expect(cause.split('\n').slice(0, 4)).toEqual([
      `PROBABLE CAUSE: closest call: send_email(${JSON.stringify({ to: 'a@b.c', body }).slice(0, 99)}…) in turn 0; body: differs (below)`,
      '                  body ([-expected-]{+got+}):',
      '                    …(43 words)… the email to the customer. Line 6 of [-an-]{+the+} email to the customer. Line 7 of the',
      '                    …(36 words)…',
    ])
  })

  it('fails when the tool was never called', () => {
    const error = failureOf(() => assertCalledWith(refund, 'issue_refnd', { order_id: '42' }))
    expect(error.assertion).toBe('"issue_refnd" was never called')
    expect(error.message).toContain('did you mean issue_refund?')
  })

  it('rejects arguments that are not an object', () => {
    expect(() => assertCalledWith(refund, 'issue_refund', ['42'] as never)).toThrow(
      new TypeError('assertCalledWith(): partialArgs must be an object, got ["42"] (array).'),
    )
  })
})
