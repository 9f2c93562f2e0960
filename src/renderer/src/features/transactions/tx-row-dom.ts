import type { Transaction } from '@shared/domain/service-schemas'
import { shortHash } from './tx-view'
import type { UnreadableRow } from './unreadable-row'
import type { RowView } from './tx-row-view'

/**
 * The cells of a transaction list row, written straight into the DOM (`writeRow`).
 *
 * The list's rows are pooled (RowPool): while it scrolls, about 9 elements a frame change rows.
 * Through a template, Vue built and compared some 25 vnodes for each of them and called a
 * directive per text; that was the largest part of a scrolled frame's script (1.2–1.9 ms of
 * about 4.7 ms on the main thread, bench/ui-profile.ts). Here each row keeps its cells and what
 * it last wrote to them, and a row taking another transaction changes only what differs: a
 * Text node's `data` (never a new Text node: Blink would rebuild its layout object and shape the
 * text again), a class, a title.
 *
 * What a cell shows is worked out in tx-row-view.ts; this file only puts it on the page. The
 * element is the row itself (role="row"); TxListBody (tx-list-body.ts) owns the row's own
 * attributes and this file its children. Events are the list's, on the rows' block (TxList.vue
 * `onRowClick`): a click on a button in a row names that button as what opened the detail.
 */

/** What a row shows: a transaction with its worked-out cells, or an item that could not be read. */
export type RowContent =
  | {
      tx: Transaction
      u: null
      v: RowView
      /** What changes without the transaction changing: its age (the clock) and its note. */
      age: string
      cutAge: boolean
      cutParties: boolean
      note: string | null
      /** The status cell clips: a status that wraps, or one with a note beside it that may not fit. */
      cutStatus: boolean
    }
  | { tx: null; u: UnreadableRow; v: null }

/**
 * An element of a row with what was last written to it, so that a row changing transactions
 * writes only what differs and never reads the DOM back.
 */
class Part {
  readonly el: HTMLElement
  #text: Text | null = null
  #textValue = ''
  #cls: string
  #attrs = new Map<string, string | null>()
  #attached = true

  constructor(tag: string, scope: string | null, cls = '', attrs: Record<string, string> = {}) {
    this.el = document.createElement(tag)
    // The list's style is scoped: its rules ask for the component's attribute (data-v-…).
    if (scope) this.el.setAttribute(scope, '')
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

  /** An attribute, removed for null. */
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

const cut = (base: string, isCut: boolean): string => (isCut ? (base ? `${base} cut` : 'cut') : base)

class TxCells {
  readonly kind = 'tx'
  readonly #age: Part
  readonly #hashCell: Part
  readonly #hash: Part
  readonly #methodCell: Part
  readonly #method: Part
  readonly #parties: Part
  readonly #dir: Part
  readonly #from: Part
  readonly #to: Part
  readonly #contract: Part
  readonly #verified: Part
  readonly #value: Part
  readonly #fee: Part
  readonly #statusCell: Part
  readonly #status: Part
  readonly #note: Part

  constructor(row: HTMLElement, scope: string | null) {
    const cell = (cls = '') => new Part('span', scope, cls, { role: 'cell' })
    const span = (cls = '', attrs: Record<string, string> = {}) => new Part('span', scope, cls, attrs)
    this.#age = cell('age')
    this.#hash = new Part('button', scope, 'link mono hash', { type: 'button' })
    this.#hashCell = cell().add(this.#hash)
    this.#method = span('badge')
    this.#methodCell = cell('method').add(this.#method)
    this.#dir = span('badge dir')
    this.#from = span('party')
    this.#to = span('party')
    this.#contract = span('badge', { title: 'Contract' }).text('contract').detached()
    this.#verified = span('badge ok', { title: 'Verified contract' }).text('verified').detached()
    this.#parties = cell('parties').add(this.#dir, this.#from, span('', { 'aria-hidden': 'true' }).text('→'), this.#to)
    this.#value = cell('num mono')
    this.#fee = cell('num mono muted')
    this.#status = span('badge')
    this.#note = span('badge').text('note').detached()
    this.#statusCell = cell('status').add(this.#status)
    row.replaceChildren(
      ...[this.#age, this.#hashCell, this.#methodCell, this.#parties, this.#value, this.#fee, this.#statusCell].map(
        (p) => p.el,
      ),
    )
  }

  write(r: Extract<RowContent, { tx: Transaction }>): void {
    const { tx, v } = r
    this.#age.text(r.age).cls(cut('age', r.cutAge)).attr('title', v.ageTitle)
    this.#hashCell.cls(cut('', v.cutHash))
    this.#hash.text(v.hashShort).attr('aria-label', v.hashLabel).attr('title', tx.hash)
    this.#methodCell.cls(cut('method', v.cutMethod)).attr('title', v.methodTitle)
    this.#method.text(v.method)
    this.#parties.cls(cut('parties', r.cutParties))
    this.#dir.text(v.dirLabel).cls(`badge dir ${v.dir}`)
    this.#from.text(v.fromText).attr('title', v.from.address)
    const to = v.to.address
    this.#to
      .text(v.toText)
      .cls(to ? 'party' : 'party muted')
      .attr('title', to)
    this.#to.show(this.#contract, !!to && v.to.isContract, this.#verified)
    this.#to.show(this.#verified, !!to && v.to.isVerified)
    this.#value.text(v.value.text).cls(cut('num mono', v.cutValue)).attr('title', v.valueTitle)
    this.#value.attr('data-full', v.value.exact)
    this.#fee.text(v.fee.text).cls(cut('num mono muted', v.cutFee)).attr('title', v.feeTitle)
    this.#fee.attr('data-full', v.fee.exact)
    this.#statusCell.cls(cut('status', r.cutStatus))
    this.#status
      .text(v.status)
      .cls(v.wrapStatus ? `badge ${v.stateClass} wrap` : `badge ${v.stateClass}`)
      .attr('title', v.wrapStatus || r.cutStatus ? v.status : null)
    this.#statusCell.show(this.#note, r.note !== null)
    if (r.note !== null) this.#note.attr('title', `Note: ${r.note}`)
  }
}

class UnreadableCells {
  readonly kind = 'unreadable'
  readonly #hash: Part
  readonly #problem: Part

  constructor(row: HTMLElement, scope: string | null) {
    const cell = (cls: string) => new Part('span', scope, cls, { role: 'cell' })
    this.#hash = cell('mono')
    this.#problem = new Part('span', scope, 'muted')
    const button = new Part('button', scope, 'link', { type: 'button' }).text('show raw')
    const rest = cell('span-rest').add(new Part('span', scope, 'badge warn').text('Unreadable item'), this.#problem)
    rest.el.append(' ', button.el)
    row.replaceChildren(cell('age').text('—').el, this.#hash.el, rest.el)
  }

  write(u: UnreadableRow): void {
    this.#hash.text(u.item.hash ? shortHash(u.item.hash, 8, 6) : '—')
    this.#problem.text(` ${u.problem}`).attr('title', u.problem)
  }
}

const cellsOf = new WeakMap<HTMLElement, TxCells | UnreadableCells>()

/** An element's scoped-style attribute (data-v-…): a row's, which its cells carry too. */
export function styleScopeOf(row: HTMLElement): string | null {
  for (const name of row.getAttributeNames()) if (name.startsWith('data-v-')) return name
  return null
}

/** Writes `r` into the row element `row`, building its cells the first time or when its kind changes. */
export function writeRow(row: HTMLElement, r: RowContent): void {
  let cells = cellsOf.get(row)
  if (r.u) {
    if (cells?.kind !== 'unreadable') cellsOf.set(row, (cells = new UnreadableCells(row, styleScopeOf(row))))
    cells.write(r.u)
  } else {
    if (cells?.kind !== 'tx') cellsOf.set(row, (cells = new TxCells(row, styleScopeOf(row))))
    cells.write(r)
  }
}
