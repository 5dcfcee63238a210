export { ScriptedChatModel, scriptedChatModel } from '../fake/langchain/chat-model.js'
export { ScriptedApiError } from '../fake/langchain/scripted-api-error.js'

export type { ScriptedChatModelCallOptions, ScriptedChatModelOptions } from '../fake/langchain/chat-model.js'
