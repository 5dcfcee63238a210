export { judge, JUDGE_SYSTEM_PROMPT } from '../simulate/judge.js'
export { JudgeAnswerError, isJudgeAnswerError } from '../errors/index.js'

export type { ChatMessage, ClientModel, ChatModelLike, LanguageModelLike, SimulationModel } from '../simulate/model-types.js'
export type { JudgeOptions } from '../simulate/judge.js'
export type { Judge, JudgeInput, JudgeVerdict, RuleJudge } from '../run/rubric-judge.js'
