/** What a page gives the app: how to follow a new address in place, keys, and how to go away. */
import type { Route } from './router.js'

export interface PageHandle {
  /** The address changed: true when the page followed it in place (another turn of the same run). */
  follow?(route: Route): boolean
  /** A key pressed outside a form field: true when the page used it. */
  onKey?(event: KeyboardEvent): boolean
  cleanup(): void
}
