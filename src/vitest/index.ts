import './register.js'
import './types.js'

export { test, it } from './fixture.js'
export { reagentMatchers } from './matchers.js'

export type { AgentSession, AgentSessionOptions, ReagentFixtures } from './fixture.js'
export type { GoldenMatcherOptions } from './golden-matcher.js'
export type { MatcherOutcome } from './outcome.js'
export type { AnswerExpectation } from './answer-matchers.js'
export type { CostMatcherOptions } from './budget-matchers.js'
