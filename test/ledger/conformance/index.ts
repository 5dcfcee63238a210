/**
 * The conformance suite both stores pass, over real HTTP: every field of the
 * five operations and trace.put, and every error status with its exact body.
 */
import { describe } from 'vitest'
import type { StartLedger } from '../harness.js'
import { beginConformance, completeConformance } from './begin-complete.js'

export function describeConformance(name: string, start: StartLedger): void {
  describe(`${name}: run.begin`, () => beginConformance(start))
  describe(`${name}: run.complete`, () => completeConformance(start))
}
