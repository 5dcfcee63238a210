export { conversation } from '../simulate/conversation.js'
export { simulatedUser } from '../simulate/simulated-user.js'
export { defaultUserPrompt } from '../simulate/user-prompt.js'
export { chatHistory } from '../simulate/transcript.js'
export { simulatedTool } from '../simulate/simulated-tool.js'
export { judge, JUDGE_SYSTEM_PROMPT } from '../simulate/judge.js'
export { redTeamPersonas } from '../simulate/personas.js'
export {
  SimulatedUserError,
  isSimulatedUserError,
  SimulatedToolError,
  isSimulatedToolError,
  JudgeAnswerError,
  isJudgeAnswerError,
} from '../errors/index.js'

export type { ConversationAgent, ConversationOptions, ConversationResult, ConversationSettings } from '../simulate/conversation.js'
export type { ScriptedUser, SimulatedUser, SimulatedUserOptions, StopVerdict, UserDone, UserTurn } from '../simulate/simulated-user.js'
export type { UserPromptInput } from '../simulate/user-prompt.js'
export type { Transcript, TranscriptMessage } from '../simulate/transcript.js'
export type { SimulatedTool } from '../simulate/simulated-tool.js'
export type { FunctionAnswer, ModelBackedAnswer, SimulatedToolContext, SimulatedToolOptions, StatefulAnswer } from '../simulate/tools/tool-options.js'
export type { JudgeOptions } from '../simulate/judge.js'
export type { Judge, JudgeInput, JudgeVerdict, RuleJudge } from '../run/rubric-judge.js'
export type { RedTeamPersona } from '../simulate/personas.js'
export type { ChatMessage, ClientModel, ChatModelLike, LanguageModelLike, SimulationModel } from '../simulate/model-types.js'
export type { ConversationEnd, ConversationMessage, ConversationRecord } from '../trace/types.js'
