export { ReagentCallbackHandler } from '../../adapters/langchain/handler.js'
export { instrumentLangChain } from '../../adapters/langchain/instrument.js'
