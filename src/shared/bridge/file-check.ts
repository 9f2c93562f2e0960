import { z } from 'zod'

/**
 * Every file the app offers (a download, an export, the report, the report sent to print) is
 * checked by main for the API key before it leaves: the renderer never knows the key, so it
 * sends the final text in parts and offers the file only once main answers that it is clean
 * (docs/decisions/file-exit-check.md).
 */

/** A part's size: a part of any characters stays under the web host's 6 MiB request limit. */
export const FILE_CHECK_PART_CHARS = 800_000
/** The largest file checked (and so offered): 400 parts. */
export const FILE_CHECK_MAX_CHARS = 320_000_000

export const fileCheckCalls = {
  'files.check': z
    .object({
      /** Names one file's parts; the renderer picks it (a random id). */
      id: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'a check id is 8 to 64 letters, digits, dashes or underscores'),
      /** The file's name, for the message if it is refused. */
      name: z.string().min(1).max(200),
      /** Parts come in order, from 0. */
      part: z
        .number()
        .int()
        .min(0)
        .max(Math.ceil(FILE_CHECK_MAX_CHARS / FILE_CHECK_PART_CHARS) - 1),
      text: z.string().max(FILE_CHECK_PART_CHARS, `a part is at most ${FILE_CHECK_PART_CHARS} characters`),
      /** The file's last part: main answers whether the whole file may be offered. */
      last: z.boolean(),
    })
    .strict(),
} as const

/** `checked`: the whole file was checked and holds no key (a file that holds one is refused). */
export interface FileCheckAnswer {
  checked: boolean
}
