import { tidyTags } from '@shared/domain/watch-limits'

/** Tags as typed in a watchlist form: comma-separated, trimmed, blanks and repeats dropped. */
export function parseTags(text: string): string[] {
  return tidyTags(text.split(','))
}
