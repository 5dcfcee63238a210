export { reagentFlow } from '../vitest/plugin.js'

export type { ReagentFlowPluginOptions } from '../vitest/plugin.js'
