/**
 * Placeholder of branch i26-judge, replaced by the "model" helper's
 * ask-model.ts when the branches merge (take theirs): the same signatures,
 * so src/simulate/judge.ts compiles and its rule-based path runs here.
 */
import type { ModelAnswer, ModelRequest, SimulationModel } from './model-types.js'

export function checkModel(who: string, value: unknown): SimulationModel {
  if (value !== null && typeof value === 'object') return value as SimulationModel
  throw new TypeError(`${who}: model must be a model object, got ${typeof value}.`)
}

export function modelLabel(model: SimulationModel): string {
  return 'model' in model && typeof model.model === 'string' ? model.model : 'model'
}

export async function askModel(who: string, _model: SimulationModel, _request: ModelRequest): Promise<ModelAnswer> {
  throw new Error(`${who}: asking a model is merged from the branch of ask-model.ts.`)
}
