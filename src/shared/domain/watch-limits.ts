/**
 * The limits of watchlists, in one place: the bridge schemas, the saved file's schema, imports
 * and the forms' `maxlength` and messages all read them. Plain values (no zod) so the
 * renderer can import them without bundling the schemas.
 */
export const WATCH_LIMITS = {
  /** Characters of an entry's label. */
  label: 80,
  /** Characters of an entry's note, and of a note on a transaction or address. */
  note: 2000,
  /** Tags per entry. */
  tags: 20,
  /** Characters of one tag. */
  tag: 40,
  /** Characters of a list's name. */
  listName: 60,
  /** Entries in one list, and rows in one import. */
  entries: 10_000,
  /** Lists in the file. */
  lists: 500,
  /** Further networks one entry may also watch. */
  alsoNetworks: 8,
} as const

export const WATCH_MESSAGES = {
  label: `the label must be text of at most ${WATCH_LIMITS.label} characters`,
  note: `the note must be text of at most ${WATCH_LIMITS.note} characters`,
  tags: `tags must be up to ${WATCH_LIMITS.tags} words of 1-${WATCH_LIMITS.tag} characters`,
  listName: `a list name is 1-${WATCH_LIMITS.listName} characters`,
  alsoNetworks: `alsoNetworks must be a list of up to ${WATCH_LIMITS.alsoNetworks} network names`,
} as const

/** Tags trimmed, blanks and repeats dropped, in order. */
export function tidyTags(parts: readonly string[]): string[] {
  return [...new Set(parts.map((t) => t.trim()).filter(Boolean))]
}

/** Whether tidied tags keep the limits (`WATCH_MESSAGES.tags` says what they are). */
export function tagsWithinLimits(tags: readonly string[]): boolean {
  return tags.length <= WATCH_LIMITS.tags && tags.every((t) => t.length <= WATCH_LIMITS.tag)
}
