/**
 * How `npm start -- --open` hands the web host's opening address (with its launch token) to the
 * browser without putting it on a command line: every local account can read any process's
 * command line (/proc/<pid>/cmdline, `ps`), the opener's and the browser's included.
 *
 * The address goes into a small HTML page that forwards to it, in a file only this user can
 * read (0600) in a fresh folder only this user can enter (0700), under $XDG_RUNTIME_DIR (a
 * per-user folder) or else the temporary folder. The opener and the browser get the file's
 * path, which is no secret. Chosen over a short-lived one-time URL because such a URL would
 * still be on the command line for a moment: a program watching the process list could use it
 * before the browser does. The token is single-use (src/main/web/web-session.ts), so the file
 * is worthless once the browser has opened it; it is deleted after a minute anyway.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const escapeHtml = (text) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c])

/** Writes the page forwarding to `url`; answers its file URL and how to delete it. */
export function writeLaunchPage(url, env = process.env) {
  const runtimeDir = env.XDG_RUNTIME_DIR
  const base = runtimeDir && existsSync(runtimeDir) ? runtimeDir : tmpdir()
  // mkdtemp makes the folder 0700.
  const dir = mkdtempSync(join(base, 'chainscope-open-'))
  const file = join(dir, 'open.html')
  const href = escapeHtml(url)
  writeFileSync(
    file,
    `<!doctype html>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0;url=${href}">
<title>Opening Chainscope…</title>
<p>Opening Chainscope… If nothing happens, <a href="${href}">open it here</a>.</p>
`,
    { mode: 0o600, flag: 'wx' },
  )
  return { file, fileUrl: pathToFileURL(file).href, remove: () => rmSync(dir, { recursive: true, force: true }) }
}
