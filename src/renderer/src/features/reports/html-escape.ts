/** The one escaping rule (ui/html-escape.ts), under the name the report's modules import. */
export { esc } from '../../ui/html-escape'
