export type { ChatMessage, ClientModel, ChatModelLike, LanguageModelLike, SimulationModel } from '../simulate/model-types.js'
