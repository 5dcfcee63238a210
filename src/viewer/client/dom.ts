/**
 * The one way the page builds its document: elements made with
 * `document.createElement`, text put in with text nodes, attributes set one
 * by one from a fixed list. Nothing here (or anywhere in the page) parses a
 * string as HTML, so what a trace holds (`<script>`, `javascript:` links)
 * is only ever shown as text. Links point inside the page only (`#/...`).
 */

export type Child = Node | string | number | null | undefined | false | readonly Child[]

export interface Attrs {
  class?: string | undefined
  id?: string | undefined
  role?: string | undefined
  title?: string | undefined
  tabindex?: number | undefined
  /** A route of this page (`#/run/...`), made by router.ts: nothing else is a link target. */
  href?: string | undefined
  type?: string | undefined
  name?: string | undefined
  value?: string | undefined
  placeholder?: string | undefined
  for?: string | undefined
  colspan?: number | undefined
  checked?: boolean | undefined
  selected?: boolean | undefined
  disabled?: boolean | undefined
  open?: boolean | undefined
  hidden?: boolean | undefined
  /** `aria-*` attributes, without the prefix. */
  aria?: Readonly<Record<string, string | number | boolean>> | undefined
  /** `data-*` attributes, without the prefix. */
  data?: Readonly<Record<string, string | number>> | undefined
  on?: { [K in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[K]) => void } | undefined
}

const BOOLEAN_PROPERTIES = ['checked', 'selected', 'disabled', 'open', 'hidden'] as const
const PLAIN_ATTRIBUTES = ['class', 'id', 'role', 'title', 'type', 'name', 'placeholder', 'for'] as const

function append(parent: Node, child: Child): void {
  if (child === null || child === undefined || child === false) return
  if (Array.isArray(child)) {
    for (const item of child as readonly Child[]) append(parent, item)
    return
  }
  parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : (child as Node))
}

/** `<tag attrs>children</tag>`; strings become text nodes. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attrs?: Attrs | null, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag)
  if (attrs) {
    for (const name of PLAIN_ATTRIBUTES) {
      const value = attrs[name]
      if (value !== undefined) element.setAttribute(name, value)
    }
    if (attrs.href !== undefined) {
      // Only routes of this page: a trace cannot make a link to anywhere else.
      if (!attrs.href.startsWith('#/')) throw new Error(`not a route of the viewer: ${attrs.href}`)
      element.setAttribute('href', attrs.href)
    }
    if (attrs.value !== undefined) (element as HTMLInputElement).value = attrs.value
    if (attrs.tabindex !== undefined) element.tabIndex = attrs.tabindex
    if (attrs.colspan !== undefined) element.setAttribute('colspan', String(attrs.colspan))
    for (const name of BOOLEAN_PROPERTIES) {
      const value = attrs[name]
      if (value !== undefined) (element as unknown as Record<string, boolean>)[name] = value
    }
    for (const [name, value] of Object.entries(attrs.aria ?? {})) element.setAttribute(`aria-${name}`, String(value))
    for (const [name, value] of Object.entries(attrs.data ?? {})) element.setAttribute(`data-${name}`, String(value))
    for (const [event, listener] of Object.entries(attrs.on ?? {})) element.addEventListener(event, listener as EventListener)
  }
  for (const child of children) append(element, child)
  return element
}

/** Replaces everything inside `element` with `children`. */
export function fill(element: Element, ...children: Child[]): void {
  element.replaceChildren()
  for (const child of children) append(element, child)
}

/** Announces `text` to screen readers (a polite live region). */
export function announce(text: string): void {
  const region = document.getElementById('announcer')
  if (region !== null) region.textContent = text
}

/** Whether a key went to a form field (the page's own keys leave those alone). */
export function isTyping(target: EventTarget | null): boolean {
  return target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'SELECT', 'TEXTAREA'].includes(target.tagName))
}
