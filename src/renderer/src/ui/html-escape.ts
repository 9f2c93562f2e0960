const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}

/**
 * Text made safe for an HTML or SVG text node and for a quoted attribute. A report holds names a
 * service chose (hostile by assumption), so every piece of data goes through here; markup the
 * report writes itself is the only unescaped text.
 */
export function esc(text: unknown): string {
  return String(text ?? '').replace(/[&<>"']/g, (c) => ENTITIES[c]!)
}
