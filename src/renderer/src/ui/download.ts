/**
 * A safe file name part from an address or network name. (Files are saved through main's check
 * for the API key: `saveText` in platform/save-file.ts.)
 */
export function fileSafe(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60)
}
