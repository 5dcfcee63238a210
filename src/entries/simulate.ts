export { redTeamPersonas } from '../simulate/personas.js'
export { simulatedTool } from '../simulate/simulated-tool.js'
export { SimulatedToolError, isSimulatedToolError } from '../errors/index.js'

export type { ChatMessage, ClientModel, ChatModelLike, LanguageModelLike, SimulationModel } from '../simulate/model-types.js'
export type { RedTeamPersona } from '../simulate/personas.js'
export type { SimulatedTool } from '../simulate/simulated-tool.js'
export type { FunctionAnswer, ModelBackedAnswer, SimulatedToolContext, SimulatedToolOptions, StatefulAnswer } from '../simulate/tools/tool-options.js'
