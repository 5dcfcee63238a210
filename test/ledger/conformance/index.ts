/**
 * The conformance suite both stores pass, over real HTTP: every field of the
 * five operations, trace.put, results.put and results.list, run.stats, run.prune, every error status with its exact body,
 * tokens and namespaces, the limits of what a store keeps.
 */
import { describe } from 'vitest'
import type { StartLedger } from '../harness.js'
import { beginConformance, completeConformance } from './begin-complete.js'
import { getConformance, gradeConformance } from './get-grade.js'
import { httpConformance, tokenConformance } from './http-identity.js'
import { idempotencyConformance } from './idempotency.js'
import { limitsConformance } from './limits.js'
import { listConformance } from './list.js'
import { projectsConformance } from './projects.js'
import { pruneConformance } from './prune.js'
import { resultsConformance } from './results.js'
import { statsConformance } from './stats.js'

export function describeConformance(name: string, start: StartLedger): void {
  describe(`${name}: run.begin`, () => beginConformance(start))
  describe(`${name}: run.complete`, () => completeConformance(start))
  describe(`${name}: run.get and trace.put`, () => getConformance(start))
  describe(`${name}: run.grade`, () => gradeConformance(start))
  describe(`${name}: run.list`, () => listConformance(start))
  describe(`${name}: HTTP`, () => httpConformance(start))
  describe(`${name}: tokens and namespaces`, () => tokenConformance(start))
  describe(`${name}: limits and storage keys`, () => limitsConformance(start))
  describe(`${name}: results.put and results.list`, () => resultsConformance(start))
  describe(`${name}: run.stats`, () => statsConformance(start))
  describe(`${name}: run.prune`, () => pruneConformance(start))
  describe(`${name}: projects and roles`, () => projectsConformance(start))
  describe(`${name}: idempotency keys`, () => idempotencyConformance(start))
}
