import type { PdfOutcome } from '@shared/bridge/report-pdf'
import type { BridgeError } from '@shared/bridge/errors'
import { bridge } from '../../platform/bridge'
import { checkedByMain } from '../../platform/save-file'

let pdfAnswer: Promise<boolean> | null = null

/**
 * Whether this host saves a PDF itself (the desktop app); the web host answers false. The host
 * does not change under a page, so main is asked once per page load, not by every button
 * mounted; a question that got no answer is asked again next time.
 */
export function pdfAvailable(): Promise<boolean> {
  pdfAnswer ??= bridge.invoke('report.pdfAvailable', {}).then(
    (r) => {
      if (!r.ok) pdfAnswer = null
      return r.ok && r.value
    },
    (e: unknown) => {
      pdfAnswer = null
      throw e
    },
  )
  return pdfAnswer
}

/** Forgets the answer, for tests that install another host in the same page. */
export function forgetPdfAvailable(): void {
  pdfAnswer = null
}

/**
 * Has main print the report to PDF and save it where the user picks. Main answers at once
 * with an id (its save dialog may stay open for long); the outcome is the event with that id.
 */
export async function savePdf(html: string, filename: string): Promise<PdfOutcome | BridgeError> {
  const early = new Map<string, PdfOutcome>()
  let wanted: string | null = null
  let done: (o: PdfOutcome) => void = () => {}
  const ended = new Promise<PdfOutcome>((resolve) => (done = resolve))
  const off = bridge.on('report.pdf', (o) => (o.id === wanted ? done(o) : early.set(o.id, o)))
  try {
    const r = await bridge.invoke('report.savePdf', { html, filename })
    if (!r.ok) return r.error
    wanted = r.value.id
    const already = early.get(wanted)
    return already ?? (await ended)
  } finally {
    off()
  }
}

/**
 * The browser's own print of the report (its print stylesheet makes a clean PDF through
 * "Save as PDF"): a hidden frame that may run no script holds the report while it prints.
 * Main checks it for the key first, as every file (`checkedByMain`); null once printing.
 */
export async function printHtml(html: string, name: string): Promise<BridgeError | null> {
  const refused = await checkedByMain(name, html)
  if (refused) return refused
  const frame = document.createElement('iframe')
  frame.setAttribute('sandbox', 'allow-same-origin allow-modals')
  frame.setAttribute('aria-hidden', 'true')
  frame.tabIndex = -1
  frame.style.cssText = 'position:fixed;width:0;height:0;border:0;opacity:0'
  frame.addEventListener('load', () => {
    frame.contentWindow?.print()
    // The print dialog returns when closed; the frame then goes.
    setTimeout(() => frame.remove(), 1000)
  })
  frame.srcdoc = html
  document.body.appendChild(frame)
  return null
}
