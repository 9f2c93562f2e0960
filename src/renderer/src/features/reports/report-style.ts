/**
 * The report's own style: system fonts only (no font is fetched), light colours that print, and
 * a print stylesheet that keeps tables and figures whole across pages and drops nothing but
 * the on-screen frame. Any browser's "Print → Save as PDF" then makes a clean PDF.
 */
export const REPORT_CSS = `
:root { color-scheme: light; }
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; color: #16202a; background: #fff; margin: 0 auto; padding: 24px; max-width: 1100px; }
h1 { font-size: 1.6em; margin: 0 0 .2em; }
h2 { font-size: 1.3em; margin: 1.6em 0 .4em; border-bottom: 2px solid #d4dbe3; padding-bottom: .2em; }
h3 { font-size: 1.05em; margin: 1.2em 0 .3em; }
.muted, .asof { color: #4a5663; }
.asof { font-size: .9em; }
.mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; word-break: break-all; }
table { border-collapse: collapse; width: 100%; margin: .4em 0 1em; font-size: .9em; }
th, td { border: 1px solid #d4dbe3; padding: 3px 6px; text-align: left; vertical-align: top; }
th { background: #eef2f6; }
td.num { text-align: right; white-space: nowrap; }
td.date { white-space: nowrap; }
.notes { white-space: pre-wrap; border-left: 3px solid #d4dbe3; padding-left: .8em; }
figure { margin: .6em 0 1em; }
figcaption { font-size: .9em; color: #4a5663; }
svg.graph line { stroke: #8a96a3; stroke-width: 1; }
svg.graph .arrowhead { fill: #8a96a3; }
svg.graph circle { fill: #5b6b7c; stroke: #fff; }
svg.graph .root circle { fill: #0b5cad; }
svg.graph text { font-size: 10px; text-anchor: middle; fill: #16202a; paint-order: stroke; stroke: #fff; stroke-width: 3px; }
svg.chart .frame { fill: #fafbfc; stroke: #d4dbe3; }
svg.chart polyline { fill: none; stroke: #0b5cad; stroke-width: 1.5; }
svg.chart .axis { font-size: 10px; fill: #4a5663; }
.label { background: #eef2f6; border-radius: 3px; padding: 0 4px; margin-left: 4px; white-space: nowrap; }
.missing { color: #8a3b00; font-weight: 600; }
table.kv th { width: 14em; text-align: left; }
td.mono-ok { word-break: break-all; }
@media print {
  body { padding: 0; max-width: none; font-size: 11pt; }
  h2 { break-before: auto; break-after: avoid; }
  h3 { break-after: avoid; }
  figure, tr, .notes { break-inside: avoid; }
  thead { display: table-header-group; }
  tfoot { display: table-footer-group; }
  th { background: none; }
  svg { max-width: 100% !important; }
}
`

/** A CSS string holding untrusted text: every character but letters, digits and spaces escaped. */
function cssString(text: string): string {
  return `"${[...text].map((ch) => (/^[A-Za-z0-9 ]$/.test(ch) ? ch : `\\${ch.codePointAt(0)!.toString(16)} `)).join('')}"`
}

/**
 * The printed page's margins: the report's title and the manifest's hash at the foot of every
 * page, and "Page N of M" (CSS paged media: Chromium prints these in "Save as PDF").
 */
export function printCss(title: string, manifestHash: string | null): string {
  const foot = manifestHash ? `${title.slice(0, 80)} · manifest ${manifestHash}` : title.slice(0, 120)
  return (
    '@page { margin: 16mm 15mm 20mm; ' +
    `@bottom-left { content: ${cssString(foot)}; font: 7pt system-ui, sans-serif; color: #4a5663; } ` +
    '@bottom-right { content: "Page " counter(page) " of " counter(pages); font: 8pt system-ui, sans-serif; color: #4a5663; } }'
  )
}
