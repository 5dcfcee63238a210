export { instrumentOpenAI } from './instrument.js'
