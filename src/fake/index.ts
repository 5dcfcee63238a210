export { scriptedFetch } from './fetch/scripted-fetch.js'
export { scriptedLanguageModel } from './ai-sdk/language-model.js'
export { ScriptExhaustedError, UnsupportedRequestError, isScriptExhaustedError, isUnsupportedRequestError } from './errors.js'

export type { ScriptedFetch } from './fetch/scripted-fetch.js'
export type { ScriptedLanguageModel, ScriptedLanguageModelOptions } from './ai-sdk/language-model.js'
export type {
  AnswerStep,
  ErrorStep,
  Script,
  ScriptAnswer,
  ScriptApi,
  ScriptedToolCall,
  ScriptedUsage,
  ScriptMessage,
  ScriptProgress,
  ScriptRequest,
  ScriptRequestToolCall,
  ScriptStep,
  ScriptTool,
} from './types.js'
