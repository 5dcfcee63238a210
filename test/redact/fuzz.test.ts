/**
 * Property tests (fast-check, seeded, bounded): hostile strings and objects
 * with planted secrets. Redaction never throws, no planted secret survives,
 * and a megabyte of any repeated hostile pattern is redacted in linear time.
 * Set REAGENT_FUZZ_SEED and REAGENT_FUZZ_RUNS to explore further.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { redactValue, resolveRedactPolicy } from '../../src/redact/index.js'
import type { JsonValue } from '../../src/trace/types.js'
import { leaksIn, secretForms, type SecretForm } from './corpus.js'

const SEED = Number(process.env.REAGENT_FUZZ_SEED ?? 20_260_101)
const RUNS = Number(process.env.REAGENT_FUZZ_RUNS ?? 300)

const ENV_SECRET = 'fuzz-env-secret-7Kq2'
const policy = resolveRedactPolicy(undefined, { env: { FUZZ_DEPLOY_TOKEN: ENV_SECRET } })!
const forms: SecretForm[] = [...secretForms(3), { name: 'environment secret', value: `env ${ENV_SECRET} here`, secrets: [ENV_SECRET] }]
const textForms = forms.filter((form) => typeof form.value === 'string')

/** Pieces the scanners react to, and pieces that break their assumptions. */
const FRAGMENTS = [
  'sk-',
  'sk-proj-',
  'Bearer',
  'bearer ',
  'Basic ',
  'Token ',
  'auth',
  'token',
  'password',
  'api_key',
  'session',
  'secret',
  ' ',
  '  ',
  '\t',
  '\n',
  '\r\n',
  '=',
  '==',
  '=>',
  ':',
  '://',
  '@',
  '&',
  '?',
  ';',
  ',',
  '"',
  "'",
  '`',
  '\\',
  '\\"',
  '{',
  '}',
  '[',
  ']',
  '(',
  ')',
  '%22',
  '\\u0022',
  'eyJ',
  '.',
  '-',
  '_',
  '-----BEGIN ',
  'PRIVATE KEY-----',
  '-----END ',
  'AKIA',
  'ghp_',
  'xoxb-',
  'AIza',
  'a',
  'Z',
  '0',
  '9',
  'é',
  '\u2028',
  '\ud83d',
  '\u0000',
]
const fragment = fc.oneof(fc.constantFrom(...FRAGMENTS), fc.string({ maxLength: 4 }))
const hostileText = fc.array(fragment, { maxLength: 40 }).map((parts) => parts.join(''))

/** Hostile text with a planted secret form between line breaks (so it is a form of its own, not glued to the noise). */
const textWithSecret = fc.tuple(hostileText, fc.constantFrom(...textForms), hostileText).map(([before, form, after]) => ({
  text: `${before}\n${form.value as string}\n${after}`,
  form,
}))

/** JSON values with planted forms (strings and structures) at random places. */
const objectWithSecrets = fc
  .tuple(fc.jsonValue({ maxDepth: 4 }), fc.array(fc.tuple(fc.constantFrom(...forms), fc.nat(), hostileText), { minLength: 1, maxLength: 4 }))
  .map(([noise, planted]) => {
    const value: JsonValue = {
      noise: noise as JsonValue,
      items: planted.map(([form, i, text]) => (i % 3 === 0 ? { [`k${i}`]: form.value } : i % 3 === 1 ? [text, form.value] : form.value)),
    }
    return { value, forms: planted.map(([form]) => form) }
  })

describe('redaction under fuzzing', () => {
  it('never throws on hostile text and never lets a planted secret through', () => {
    fc.assert(
      fc.property(textWithSecret, ({ text, form }) => {
        const out = redactValue(text, policy)
        expect(leaksIn(out, [form])).toEqual([])
      }),
      { seed: SEED, numRuns: RUNS },
    )
  })

  it('never throws on hostile JSON values and never lets a planted secret through', () => {
    fc.assert(
      fc.property(objectWithSecrets, ({ value, forms: planted }) => {
        expect(leaksIn(JSON.stringify(redactValue(value, policy)), planted)).toEqual([])
      }),
      { seed: SEED, numRuns: RUNS },
    )
  })

  it('never throws on any JSON value or string, and returns JSON of the same kind', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), hostileText), (value) => {
        const out = redactValue(value as JsonValue, policy)
        expect(Array.isArray(out)).toBe(Array.isArray(value))
        expect(typeof out).toBe(typeof value)
        expect(typeof JSON.stringify(out)).toBe('string')
      }),
      { seed: SEED, numRuns: RUNS },
    )
  })

  it('redacts a megabyte of any repeated hostile pattern in linear time', () => {
    const size = 1_000_000
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...FRAGMENTS), { minLength: 1, maxLength: 6 }), (parts) => {
        const pattern = parts.join('')
        const text = pattern.repeat(Math.ceil(size / Math.max(1, pattern.length)))
        const start = performance.now()
        redactValue(text, policy)
        // Linear work on 1 MB takes tens of milliseconds; quadratic work, minutes.
        expect(performance.now() - start).toBeLessThan(2_000)
      }),
      { seed: SEED, numRuns: 25 },
    )
  })
})
