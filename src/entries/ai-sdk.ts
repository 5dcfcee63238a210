export { reagentMiddleware } from '../../adapters/ai-sdk/middleware.js'
export { instrumentTools } from '../../adapters/ai-sdk/instrument-tools.js'
