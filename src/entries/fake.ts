export { scriptedFetch } from '../fake/fetch/scripted-fetch.js'
export { scriptedLanguageModel } from '../fake/ai-sdk/language-model.js'
export { scriptedTools } from '../fake/scripted-tools.js'
export {
  ScriptExhaustedError,
  ToolScriptExhaustedError,
  UnsupportedRequestError,
  isScriptExhaustedError,
  isToolScriptExhaustedError,
  isUnsupportedRequestError,
} from '../fake/errors.js'

export type { ScriptedFetch } from '../fake/fetch/scripted-fetch.js'
export type { ScriptedLanguageModel, ScriptedLanguageModelOptions } from '../fake/ai-sdk/language-model.js'
export type { ScriptedToolAnswer, ScriptedTools } from '../fake/scripted-tools.js'
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
} from '../fake/types.js'
