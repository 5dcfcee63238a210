export { ScriptedChatModel, scriptedChatModel } from './chat-model.js'
export { ScriptedApiError } from './scripted-api-error.js'

export type { ScriptedChatModelCallOptions, ScriptedChatModelOptions } from './chat-model.js'
