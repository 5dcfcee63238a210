import { describe, expect, it } from 'vitest'
import { epochSeconds, ulid } from '../../src/trace/ids.js'

describe('ulid()', () => {
  it('is 26 Crockford base32 characters starting with the encoded time', () => {
    expect(ulid(0)).toMatch(/^0000000000[0-9A-HJKMNP-TV-Z]{16}$/)
    expect(ulid(1_469_918_176_385).slice(0, 10)).toBe('01ARYZ6S41')
  })

  it('sorts in creation order, also within one millisecond', () => {
    const ids = Array.from({ length: 1000 }, () => ulid(1_700_000_000_000))
    expect([...ids].sort()).toEqual(ids)
    expect(new Set(ids).size).toBe(1000)
  })
})

describe('epochSeconds()', () => {
  it('is the wall clock in seconds, never a whole number', () => {
    const now = epochSeconds()
    expect(Math.abs(now - Date.now() / 1000)).toBeLessThan(1)
    for (let i = 0; i < 100; i++) expect(Number.isInteger(epochSeconds())).toBe(false)
  })
})
