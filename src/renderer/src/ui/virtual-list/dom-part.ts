/**
 * An element of a pooled row with what was last written to it, so that a row taking another item
 * writes only what differs and never reads the DOM back: a Text node's `data` changed in place
 * (never a new Text node: Blink would rebuild its layout object and shape the text again), a
 * class, an attribute.
 */
export class Part {
  readonly el: HTMLElement
  #text: Text | null = null
  #textValue = ''
  #cls: string
  #attrs = new Map<string, string | null>()
  #attached = true

  constructor(tag: string, cls = '', attrs: Record<string, string> = {}) {
    this.el = document.createElement(tag)
    this.#cls = cls
    if (cls) this.el.className = cls
    for (const [name, value] of Object.entries(attrs)) this.el.setAttribute(name, value)
  }

  /** The element's text, before any child element, changed in place. */
  text(value: string): this {
    if (this.#text === null) {
      this.#text = document.createTextNode(value)
      this.el.prepend(this.#text)
    } else if (value !== this.#textValue) this.#text.data = value
    this.#textValue = value
    return this
  }

  cls(value: string): this {
    if (value !== this.#cls) {
      this.#cls = value
      this.el.className = value
    }
    return this
  }

  /** An attribute, removed for null or undefined. */
  attr(name: string, value: string | null | undefined): this {
    const v = value ?? null
    if (this.#attrs.get(name) === v && this.#attrs.has(name)) return this
    this.#attrs.set(name, v)
    if (v === null) this.el.removeAttribute(name)
    else this.el.setAttribute(name, v)
    return this
  }

  add(...parts: Part[]): this {
    this.el.append(...parts.map((p) => p.el))
    return this
  }

  /** Shows `child` in this element or takes it out, keeping it before `before` when that is shown. */
  show(child: Part, shown: boolean, before: Part | null = null): void {
    if (shown === child.#attached) return
    child.#attached = shown
    if (!shown) child.el.remove()
    else this.el.insertBefore(child.el, before !== null && before.#attached ? before.el : null)
  }

  /** A part made but not yet in the document (shown later with `show`). */
  detached(): this {
    this.#attached = false
    return this
  }
}

/** `base` with the `cut` class when its text may not fit (the cell clips, for the ellipsis). */
export const withCut = (base: string, isCut: boolean): string => (isCut ? (base ? `${base} cut` : 'cut') : base)
