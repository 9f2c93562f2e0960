import { z } from 'zod'
import type { ExportFile } from '@shared/bridge/contract'
import { CASES_VERSION, caseExportSchema, migrateCase, type CaseFile } from '@shared/domain/case-file'
import { AppError } from '../util/app-error'

/**
 * A case as one JSON file: `{ format: "chainscope-case", version: 2, case }` (a version 1 file
 * still imports, migrated). An import is
 * checked against the same schema as the saved file; the first problem is named by its path
 * in the file ("case.addresses.2.address: expected a lowercase address").
 */
export function exportCase(c: CaseFile): ExportFile {
  const safe = c.name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60) || 'case'
  return {
    filename: `chainscope-case-${safe}.json`,
    mime: 'application/json',
    text: `${JSON.stringify({ format: 'chainscope-case', version: CASES_VERSION, case: c }, null, 2)}\n`,
  }
}

export function parseCaseImport(text: string): CaseFile {
  let raw: unknown
  try {
    raw = JSON.parse(text.replace(/^\uFEFF/, ''))
  } catch (error) {
    const why = error instanceof Error ? error.message.slice(0, 120) : 'unreadable'
    throw new AppError('invalid-input', `Nothing was imported: the file is not valid JSON (${why}).`, { field: 'text' })
  }
  if (
    typeof raw === 'object' &&
    raw !== null &&
    'version' in raw &&
    typeof raw.version === 'number' &&
    raw.version > CASES_VERSION
  )
    throw new AppError(
      'invalid-input',
      `Nothing was imported: the case was written by a newer Chainscope (version ${raw.version}); update Chainscope to open it.`,
      { field: 'text' },
    )
  if (typeof raw !== 'object' || raw === null || !('format' in raw) || raw.format !== 'chainscope-case')
    throw new AppError(
      'invalid-input',
      'Nothing was imported: this is not a Chainscope case file (it has no "format": "chainscope-case"). Export the case again from Chainscope.',
      { field: 'text' },
    )
  const parsed = caseExportSchema.safeParse(raw)
  if (!parsed.success)
    throw new AppError('invalid-input', `Nothing was imported: ${firstProblem(parsed.error)}.`, { field: 'text' })
  return migrateCase(parsed.data.case, parsed.data.version)
}

function firstProblem(error: z.ZodError): string {
  const first = error.issues[0]
  const where = first?.path.length ? first.path.join('.').slice(0, 100) : 'the file'
  const more = error.issues.length > 1 ? ` (and ${error.issues.length - 1} more)` : ''
  return `${where}: ${first?.message ?? 'invalid'}${more}`
}
