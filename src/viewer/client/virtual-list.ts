/**
 * A list that keeps only the rows in view (and a screen above and below) in
 * the document, so a 10,000-turn run opens as fast as a short one and scrolls
 * smoothly. Rows may have any height (long names wrap): each is measured
 * once shown, and the rows above the first one in view keep their place when
 * an estimate turns out wrong.
 */
import { h } from './dom.js'

export interface VirtualListOptions<T> {
  /** Builds the element of one row. */
  render: (item: T, index: number) => HTMLElement
  /** A row's height before it is measured, in pixels. */
  estimate: number
  /** The list's accessible name. */
  label: string
}

export class VirtualList<T> {
  /** The scrolling element: put it in the page. */
  readonly element: HTMLElement
  readonly #content: HTMLElement
  readonly #options: VirtualListOptions<T>
  #items: readonly T[] = []
  #heights = new Float64Array(0)
  #offsets = new Float64Array(1)
  #dirty = true
  #rendered = new Map<number, HTMLElement>()
  #frame = 0
  #width = 0

  constructor(options: VirtualListOptions<T>) {
    this.#options = options
    this.#content = h('div', { class: 'vlist-content', role: 'list', aria: { label: options.label } })
    this.element = h('div', { class: 'vlist', on: { scroll: () => this.#schedule() } }, this.#content)
    new ResizeObserver(() => {
      if (this.element.clientWidth === this.#width) return this.#schedule()
      // Rows wrap differently at another width: measure what is shown again.
      this.#width = this.element.clientWidth
      for (const index of this.#rendered.keys()) this.#heights[index] = 0
      this.#schedule()
    }).observe(this.element)
  }

  get items(): readonly T[] {
    return this.#items
  }

  /** New items; rows already measured keep their heights when `keepHeights` (the same list, grown or refreshed). */
  setItems(items: readonly T[], { keepHeights = false }: { keepHeights?: boolean } = {}): void {
    const old = this.#heights
    this.#items = items
    this.#heights = new Float64Array(items.length)
    if (keepHeights) this.#heights.set(old.subarray(0, Math.min(old.length, items.length)))
    this.#dirty = true
    for (const row of this.#rendered.values()) row.remove()
    this.#rendered.clear()
    this.render()
  }

  /** The element of row `index` when it is in the document. */
  rowElement(index: number): HTMLElement | undefined {
    return this.#rendered.get(index)
  }

  #heightOf(index: number): number {
    return this.#heights[index]! || this.#options.estimate
  }

  #layout(): void {
    if (!this.#dirty) return
    const n = this.#items.length
    if (this.#offsets.length !== n + 1) this.#offsets = new Float64Array(n + 1)
    for (let i = 0; i < n; i++) this.#offsets[i + 1] = this.#offsets[i]! + this.#heightOf(i)
    this.#content.style.height = `${this.#offsets[n]}px`
    // A short list is as tall as its rows; a long one scrolls inside 70% of the window.
    this.element.style.height = `${Math.min(this.#offsets[n]! + 2, Math.max(240, window.innerHeight * 0.7))}px`
    this.#dirty = false
  }

  /** The first row whose bottom is below `y`. */
  #indexAt(y: number): number {
    let low = 0
    let high = this.#items.length - 1
    while (low < high) {
      const middle = (low + high) >>> 1
      if (this.#offsets[middle + 1]! <= y) low = middle + 1
      else high = middle
    }
    return Math.max(0, low)
  }

  #schedule(): void {
    if (this.#frame !== 0) return
    this.#frame = requestAnimationFrame(() => {
      this.#frame = 0
      this.render()
    })
  }

  /** Puts the rows in view in the document, measures the new ones, and places them. */
  render(): void {
    for (let pass = 0; pass < 3; pass++) {
      this.#layout()
      const n = this.#items.length
      const top = this.element.scrollTop
      const view = this.element.clientHeight || 800
      const first = n === 0 ? 0 : this.#indexAt(Math.max(0, top - view))
      let last = first
      while (last < n && this.#offsets[last]! < top + 2 * view) last++
      for (const [index, row] of this.#rendered) {
        if (index < first || index >= last) {
          row.remove()
          this.#rendered.delete(index)
        }
      }
      const fresh: number[] = []
      for (let index = first; index < last; index++) {
        if (this.#rendered.has(index)) continue
        const row = this.#options.render(this.#items[index]!, index)
        row.classList.add('vlist-row')
        row.setAttribute('role', 'listitem')
        row.setAttribute('aria-setsize', String(n))
        row.setAttribute('aria-posinset', String(index + 1))
        this.#content.appendChild(row)
        this.#rendered.set(index, row)
        fresh.push(index)
      }
      let shift = 0
      let changed = false
      for (const [index, row] of this.#rendered) {
        if (this.#heights[index] !== 0 && !fresh.includes(index)) continue
        const height = row.offsetHeight
        if (height !== this.#heightOf(index) || this.#heights[index] === 0) {
          if (this.#offsets[index + 1]! <= top) shift += height - this.#heightOf(index)
          changed = changed || height !== this.#heightOf(index)
          this.#heights[index] = height
          this.#dirty = true
        }
      }
      this.#layout()
      for (const [index, row] of this.#rendered) row.style.transform = `translateY(${this.#offsets[index]}px)`
      if (shift !== 0) this.element.scrollTop = top + shift
      if (!changed) return
    }
  }

  /** Scrolls so row `index` is in view (`center`: in the middle of it). */
  scrollToIndex(index: number, align: 'nearest' | 'center' = 'nearest'): void {
    if (index < 0 || index >= this.#items.length) return
    this.#layout()
    const top = this.#offsets[index]!
    const bottom = this.#offsets[index + 1]!
    const view = this.element.clientHeight
    if (align === 'center') this.element.scrollTop = Math.max(0, top - (view - (bottom - top)) / 2)
    else if (top < this.element.scrollTop) this.element.scrollTop = top
    else if (bottom > this.element.scrollTop + view) this.element.scrollTop = bottom - view
    this.render()
  }
}
