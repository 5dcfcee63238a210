/** Numbers, times and states as the page shows them. */
import type { TraceStatus } from '../../trace/types.js'
import type { Spend } from '../../trace/spend-types.js'
import type { GoldenState } from '../types.js'

/** `12ms`, `1.2s`, `85µs`, as the CLI writes durations (report/format-value.ts, which the page cannot import: it reaches Node's process). */
export function formatDuration(ms: number): string {
  if (ms < 1) return `${Math.round(ms * 1000)}µs`
  if (ms < 1000) return `${ms < 10 ? ms.toFixed(1).replace(/\.0$/, '') : Math.round(ms)}ms`
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)}s`
}

/** `$0.05`, and `$0.0034` below a cent (as the CLI shows costs). */
export function formatUsd(amount: number): string {
  return `$${amount >= 0.01 || amount === 0 ? amount.toFixed(2) : amount.toPrecision(2)}`
}

const numberFormat = new Intl.NumberFormat('en')
export const formatCount = (value: number): string => numberFormat.format(value)

/** Epoch seconds as `2027-01-15 08:00:02` in UTC. */
export function formatTime(seconds: number): string {
  const date = new Date(seconds * 1000)
  return Number.isNaN(date.getTime()) ? '—' : `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`
}

/** `+120`, `−40`, `±0`. */
export function formatDelta(value: number, unit = ''): string {
  if (value === 0) return `±0${unit}`
  return `${value > 0 ? '+' : '−'}${formatCount(Math.abs(Math.round(value * 10) / 10))}${unit}`
}

export const STATUS_LABEL: Readonly<Record<TraceStatus, string>> = {
  active: 'active',
  completed: 'completed',
  failed: 'failed',
  cancelled: 'cancelled',
  interrupted: 'interrupted',
}

export const GOLDEN_LABEL: Readonly<Record<GoldenState, string>> = {
  matches: 'matches',
  differs: 'differs',
  none: 'no golden',
  pending: 'pending',
  unreadable: 'unreadable golden',
}

/** A JSON value on one line, cut to `max` characters. */
export function oneLineJson(value: unknown, max = 160): string {
  let text: string
  try {
    text = JSON.stringify(value) ?? String(value)
  } catch {
    text = String(value)
  }
  return text.length > max ? `${text.slice(0, max - 1)}…` : text
}

/** A model's text on one line, cut to `max` characters. */
export function oneLineText(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ').trim()
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat
}

type RoleSpend = Spend['total']

function spendPart(label: string, part: RoleSpend): string {
  const unpriced = part.unpricedModels.join(', ')
  const usd = part.usd === null ? `no price for ${unpriced}` : `${formatUsd(part.usd)}${unpriced === '' ? '' : ` + no price for ${unpriced}`}`
  return `${label} ${formatCount(part.tokens)} tokens ${usd}`
}

/** A run's spend in one line, as `reagent-flow show` prints it: the agent, each helper that spent anything, the total. */
export function formatSpend(spend: Spend): string {
  const roles = (['agent', 'user', 'judge', 'tools'] as const).filter(
    (role) => role === 'agent' || spend[role].tokens > 0 || spend[role].unpricedModels.length > 0,
  )
  return [...roles.map((role) => spendPart(role, spend[role])), spendPart('total', spend.total)].join(' · ')
}
