/** Saves text as a file through the browser's download (Electron shows its save dialog). */
export function saveText(filename: string, mime: string, text: string): void {
  const blob = new Blob([text], { type: `${mime};charset=utf-8` })
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = filename
  a.rel = 'noopener'
  document.body.appendChild(a)
  a.click()
  a.remove()
  // Give the download a moment to start before the URL goes away.
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

/** A safe file name part from an address or network name. */
export function fileSafe(text: string): string {
  return text.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 60)
}
