/**
 * The rules for one string read as text: value shapes (value-shapes.ts,
 * token-shapes.ts), name/value pairs and XML elements (text-pairs.ts,
 * xml-elements.ts), the environment's secret values, the user's patterns.
 * A gate lets most strings of a trace through at the cost of one regex test.
 */
import { findLiterals } from './env-secrets.js'
import { isSecretName, REDACTED, type RedactPolicy } from './policy.js'
import { replaceRanges, type Ranges } from './ranges.js'
import { findSecretPairs } from './text-pairs.js'
import { findValueShapes } from './value-shapes.js'
import { findSecretElements } from './xml-elements.js'

/**
 * A string can hold a default secret only if it contains one of these: the
 * literal start of every value shape, and a stem of every secret key word
 * (for name/value pairs). Strings without any cost one native regex test.
 */
const DEFAULT_GATE =
  /sk-|[sr]k_|eyJ|-----BEGIN|:\/\/|bearer|basic|token|pass|pwd|secret|auth|key|cookie|cred|sess|jwt|AKIA|ASIA|gh[pousr]_|github_pat_|xox[abeprs]-|AIza|hf_|npm_|glpat-|hook|sig=/i
/** No default rule matches fewer characters. */
export const MIN_GATED_LENGTH = 3

const literalGates = new WeakMap<RedactPolicy, RegExp>()

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
}

function literalGate(policy: RedactPolicy): RegExp {
  let gate = literalGates.get(policy)
  if (gate === undefined) literalGates.set(policy, (gate = new RegExp(policy.literals.map(escapeRegExp).join('|'))))
  return gate
}

function hasUserKeys(policy: RedactPolicy): boolean {
  return policy.keyNames.size > 0 || policy.keyPatterns.length > 0
}

function applyUserPatterns(text: string, policy: RedactPolicy): string {
  let out = text
  for (const pattern of policy.valuePatterns) {
    pattern.lastIndex = 0
    out = out.replace(pattern, REDACTED)
  }
  return out
}

/** Whether a default rule could find something in `text`: see DEFAULT_GATE. */
function passesGate(text: string, policy: RedactPolicy): boolean {
  return policy.defaults && text.length >= MIN_GATED_LENGTH && DEFAULT_GATE.test(text)
}

/** Whether any rule of `policy` could change `text`: what lets most strings of a trace pass at the cost of one regex test. */
function mayHoldSecret(text: string, policy: RedactPolicy): boolean {
  return passesGate(text, policy) || hasUserKeys(policy) || policy.valuePatterns.length > 0 || (policy.literals.length > 0 && literalGate(policy).test(text))
}

/** `text` with its secrets replaced, read as text (not as JSON). */
export function redactText(text: string, policy: RedactPolicy): string {
  return redactGatedText(text, policy, passesGate(text, policy))
}

function redactGatedText(text: string, policy: RedactPolicy, gated: boolean): string {
  const ranges: Ranges = []
  if (gated) findValueShapes(text, ranges)
  if (gated || hasUserKeys(policy)) {
    const isSecret = (name: string): boolean => isSecretName(name, policy)
    findSecretPairs(text, ranges, isSecret)
    findSecretElements(text, ranges, isSecret)
  }
  if (policy.literals.length > 0 && literalGate(policy).test(text)) findLiterals(text, policy.literals, ranges)
  return applyUserPatterns(replaceRanges(text, ranges, REDACTED), policy)
}

/** Whether parsing `text` as JSON could find anything to redact. */
export function isWorthParsing(text: string, policy: RedactPolicy): boolean {
  if (hasUserKeys(policy) || policy.valuePatterns.length > 0) return true
  // A \u escape could spell any key; rare enough to always look.
  return DEFAULT_GATE.test(text) || (policy.literals.length > 0 && literalGate(policy).test(text)) || text.includes('\\u')
}

/** `text` with its secrets replaced, when any rule could find one; else `text` itself, at the cost of the gate. */
export function redactStringAsText(text: string, policy: RedactPolicy): string {
  return mayHoldSecret(text, policy) ? redactGatedText(text, policy, passesGate(text, policy)) : text
}
