/** Who reports whether the app can be seen: the host (window state, sleep, screen lock) and the page. */
export type VisibilitySource = 'host' | 'page'

/**
 * Combines visibility reports so that no reporter can overrule another's "hidden": the app
 * counts as visible only while every source that has reported says so. Without this, a page
 * that reports itself visible after the host saw the screen lock would switch polling back on.
 * A host with no page (the benchmarks) or a page with a silent host (the web host) works alone.
 */
export function createVisibility(
  onChange: (visible: boolean) => void,
): (source: VisibilitySource, visible: boolean) => void {
  const reports = new Map<VisibilitySource, boolean>()
  let current = false
  return (source, visible) => {
    reports.set(source, visible)
    const next = [...reports.values()].every(Boolean)
    if (next !== current) {
      current = next
      onChange(next)
    }
  }
}
