import type { UnreadableItem } from '@shared/domain/service-schemas'

/**
 * A list row for an item the service sent that did not match the schema. A class, so that
 * `instanceof` tells it from a transaction (whose loose type admits any extra field).
 */
export class UnreadableRow {
  /** Stable list key: the hash when readable, else page and position. */
  readonly key: string
  constructor(
    readonly item: UnreadableItem,
    page: number,
  ) {
    this.key = item.hash ?? `unreadable:${page}:${item.index}`
  }

  /** The raw item, pretty-printed, for the detail view and exports. */
  get json(): string {
    return JSON.stringify(this.item.raw, null, 2) ?? String(this.item.raw)
  }

  /** "items.3.token_transfers.0.total: expected a value or a token id". */
  get problem(): string {
    return `${this.item.path || '(the item itself)'}: ${this.item.message}`
  }
}
