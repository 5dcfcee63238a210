export { instrumentAgentsModel, instrumentOpenAIAgents } from './instrument.js'

export type { AgentsModelOptions } from './instrument.js'
