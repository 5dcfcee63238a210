export { instrumentOpenAI } from '../../adapters/openai/instrument.js'
