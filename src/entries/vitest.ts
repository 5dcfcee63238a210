import '../vitest/register.js'
import '../vitest/types.js'
import { inject } from 'vitest'
import { setProjectDefaultsReader } from '../replay/project-defaults.js'
import { registerTestScope } from '../vitest/test-scope.js'

export { test, it } from '../vitest/fixture.js'
export { reagentMatchers } from '../vitest/matchers.js'

export type { AgentSession, AgentSessionOptions, ReagentFixtures } from '../vitest/fixture.js'
export type { GoldenMatcherOptions } from '../vitest/golden-matcher.js'
export type { MatcherOutcome } from '../vitest/outcome.js'
export type { AnswerExpectation } from '../vitest/answer-matchers.js'
export type { CostMatcherOptions } from '../vitest/budget-matchers.js'
export type { ProjectDefaults } from '../replay/project-defaults.js'

// Here, in the entry: vitest evaluates a setup file again for every test file (also with `isolate: false`),
// but the modules it imports once per worker, and the test scope is a hook of the file being collected.
registerTestScope()
// The project's record and replay defaults (`provide: { reagentFlow }` in the vitest config), read each time a session opens.
setProjectDefaultsReader(() => inject('reagentFlow'))
