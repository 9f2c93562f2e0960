import { z } from 'zod'

/** The largest report the desktop app turns into a PDF (the bridge's other file texts are as large). */
const REPORT_PDF_MAX_CHARS = 5_000_000

/** A file name the save dialog suggests: a plain name ending in .pdf, no folder. */
const pdfFilename = z
  .string()
  .regex(
    /^[A-Za-z0-9._-]{1,150}\.pdf$/,
    'a PDF file name is letters, digits, dots, dashes and underscores, ending in .pdf',
  )

/** Report calls only the desktop app carries out; the web host answers that it cannot. */
export const reportPdfCalls = {
  'report.pdfAvailable': z.object({}).strict(),
  'report.savePdf': z
    .object({
      html: z.string().min(1).max(REPORT_PDF_MAX_CHARS, `a report is at most ${REPORT_PDF_MAX_CHARS} characters`),
      filename: pdfFilename,
    })
    .strict(),
} as const

/**
 * How a PDF save ended, pushed as the `report.pdf` event: saving waits on the user's save
 * dialog, longer than a call may take to answer, so `report.savePdf` answers at once with an id.
 */
export interface PdfOutcome {
  id: string
  outcome: 'saved' | 'cancelled' | 'failed'
  /** The saved file's name (not its folder), when saved. */
  file: string | null
  /** What went wrong and what to do, when it failed. */
  message: string | null
}
