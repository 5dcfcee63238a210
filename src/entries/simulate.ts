export { redTeamPersonas } from '../simulate/personas.js'

export type { ChatMessage, ClientModel, ChatModelLike, LanguageModelLike, SimulationModel } from '../simulate/model-types.js'
export type { RedTeamPersona } from '../simulate/personas.js'
