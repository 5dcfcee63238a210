export { instrumentAgentsModel, instrumentOpenAIAgents } from '../../adapters/openai-agents/instrument.js'

export type { AgentsModelOptions } from '../../adapters/openai-agents/instrument.js'
