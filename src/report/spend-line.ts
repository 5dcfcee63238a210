/**
 * A run's spend in one line, for `reagent-flow show` and the viewer: the
 * agent's part, then each helper's that spent anything, then the total.
 *
 *   agent 291 tokens $0.0027 · user 530 tokens $0.00040 · judge 104 tokens $0.00026 · total 925 tokens $0.0034
 */
import { formatUsd } from '../trace/cost.js'
import { SPEND_ROLES, type RoleSpend, type Spend } from '../trace/spend.js'

function dollars(part: RoleSpend): string {
  if (part.usd === null) return `no price for ${part.unpricedModels.join(', ')}`
  const unpriced = part.unpricedModels.length === 0 ? '' : ` + no price for ${part.unpricedModels.join(', ')}`
  return `${formatUsd(part.usd)}${unpriced}`
}

function partText(label: string, part: RoleSpend): string {
  return `${label} ${part.tokens} tokens ${dollars(part)}`
}

export function formatSpend(spend: Spend): string {
  const parts = SPEND_ROLES.filter((role) => role === 'agent' || spend[role].tokens > 0 || spend[role].unpricedModels.length > 0).map((role) =>
    partText(role, spend[role]),
  )
  return [...parts, partText('total', spend.total)].join(' · ')
}
