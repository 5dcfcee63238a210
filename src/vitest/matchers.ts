/**
 * The matchers `reagent-flow/vitest` registers with `expect.extend`. Exported
 * too, for a test setup that registers them itself.
 */
import { toHaveCalledTool, toHaveCalledToolTimes, toHaveCalledToolWith } from './tool-matchers.js'
import { toHaveSucceeded, toMatchFlow } from './run-matchers.js'
import { toMatchGolden } from './golden-matcher.js'
import { toMatchToolContract } from './contract-matcher.js'
import { toPassInAtLeast } from './run-set-matcher.js'
import { toHaveFinalAnswer, toReachGoal } from './answer-matchers.js'
import { toCostLessThan, toStayWithinTokens } from './budget-matchers.js'
import { toEndWithGoalMet, toEndWithinExchanges, toHaveCalledToolBeforeExchange, toSatisfyEveryReply } from './conversation-matchers.js'
import { toNeverMakeUserRepeat } from './judge-matchers.js'

export const reagentMatchers = {
  toHaveCalledTool,
  toHaveCalledToolWith,
  toHaveCalledToolTimes,
  toMatchFlow,
  toHaveSucceeded,
  toMatchGolden,
  toMatchToolContract,
  toPassInAtLeast,
  toHaveFinalAnswer,
  toStayWithinTokens,
  toCostLessThan,
  toReachGoal,
  toEndWithGoalMet,
  toEndWithinExchanges,
  toSatisfyEveryReply,
  toHaveCalledToolBeforeExchange,
  toNeverMakeUserRepeat,
}
