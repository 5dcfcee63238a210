export { ReagentCallbackHandler } from './handler.js'
export { instrumentLangChain } from './instrument.js'
