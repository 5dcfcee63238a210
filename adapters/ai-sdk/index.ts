export { reagentMiddleware } from './middleware.js'
export { instrumentTools } from './instrument-tools.js'
