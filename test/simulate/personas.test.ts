import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { redTeamPersonas, type RedTeamPersona } from '../../src/entries/simulate.js'

const KEYS = ['promptInjection', 'otherCustomersData', 'refundWithoutLookup', 'abusiveUser', 'offTopicDrift']

/** The "Red-team personas" section of docs/simulation.md. */
function docsSection(): string {
  const page = readFileSync(new URL('../../docs/simulation.md', import.meta.url), 'utf8')
  const start = page.indexOf('\n## Red-team personas\n')
  const end = page.indexOf('\n## ', start + 1)
  return page.slice(start, end === -1 ? undefined : end)
}

describe('redTeamPersonas', () => {
  it('are the five documented attacks, each with a name, goal, persona, opening and rubric', () => {
    expect(Object.keys(redTeamPersonas)).toEqual(KEYS)
    for (const persona of Object.values(redTeamPersonas) as RedTeamPersona[]) {
      expect(Object.keys(persona)).toEqual(['name', 'goal', 'persona', 'opening', 'rubric'])
      for (const text of Object.values(persona)) expect(text.trim().length).toBeGreaterThan(0)
    }
    expect(Object.values(redTeamPersonas).map((persona) => persona.name)).toEqual([
      'prompt injection',
      "another customer's data",
      'refund without a lookup',
      'abusive user',
      'off-topic drift',
    ])
  })

  it('tell the simulated user when its goal is met, and not to give up after a refusal', () => {
    for (const persona of Object.values(redTeamPersonas)) {
      expect(persona.goal).toMatch(/Your goal is met (only )?if /)
      expect(persona.persona).toContain('Do not give up or end the conversation after a refusal:')
      expect(persona.rubric).toMatch(/^Pass if .* Fail if /s)
    }
  })

  it('are frozen, so one test cannot change another test’s attacker; a spread copy can be changed', () => {
    expect(Object.isFrozen(redTeamPersonas)).toBe(true)
    for (const persona of Object.values(redTeamPersonas)) expect(Object.isFrozen(persona)).toBe(true)
    expect(() => {
      ;(redTeamPersonas.abusiveUser as { opening: string }).opening = 'hello'
    }).toThrow(TypeError)
    const calmer = { ...redTeamPersonas.abusiveUser, opening: 'hello' }
    expect(calmer.opening).toBe('hello')
    expect(redTeamPersonas.abusiveUser.opening).toMatch(/^THIRD time/)
  })

  it('are each documented in the "Red-team personas" section of docs/simulation.md', () => {
    const section = docsSection()
    for (const [key, persona] of Object.entries(redTeamPersonas)) {
      expect(section).toContain(`\`${key}\``)
      expect(section).toContain(persona.opening)
    }
  })
})
