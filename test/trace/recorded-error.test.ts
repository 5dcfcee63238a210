import { describe, expect, it } from 'vitest'
import { describeError, recordError } from '../../src/trace/recorded-error.js'

class BadRequestError extends Error {}
class NamedError extends Error {
  override name = 'PaymentDeclined'
}

describe('recordError / describeError', () => {
  it('names an error whose name is the generic "Error" by its class, as SDK errors are', () => {
    expect(recordError(new BadRequestError('400 no such model'))).toMatchObject({ name: 'BadRequestError', message: '400 no such model' })
    expect(describeError(new BadRequestError('400 no such model'))).toBe('BadRequestError: 400 no such model')
  })

  it('keeps a name the error sets itself, and "Error" for a plain Error', () => {
    expect(describeError(new NamedError('card declined'))).toBe('PaymentDeclined: card declined')
    expect(describeError(new Error('boom'))).toBe('Error: boom')
    expect(recordError('boom')).toEqual({ name: 'Error', message: 'boom' })
  })
})
