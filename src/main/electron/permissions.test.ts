import type { Session } from 'electron'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { Logger } from '../core/util/logger'
import { denyAllPermissions, isOwnDownload } from './permissions'
import { fakeEvent, FakeWebContents, resetFakeElectron, session } from './testing/fake-electron'

vi.mock('electron', () => import('./testing/fake-electron'))

const log: Logger = { info: vi.fn(), warn: vi.fn(), error: vi.fn() }

beforeEach(() => {
  resetFakeElectron()
  denyAllPermissions(session.defaultSession as unknown as Session, log)
})

describe('permissions', () => {
  it('denies every permission request', () => {
    const handler = session.defaultSession.permissionRequestHandler!
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'clipboard-read',
      'openExternal',
      'fullscreen',
      'hid',
      'unknown',
    ]) {
      const callback = vi.fn()
      handler(new FakeWebContents(), permission, callback, { requestingUrl: 'app://chainscope/' })
      expect(callback, permission).toHaveBeenCalledExactlyOnceWith(false)
    }
  })

  it('answers every permission check and device check with no', () => {
    for (const permission of ['media', 'clipboard-sanitized-write', 'notifications']) {
      expect(session.defaultSession.permissionCheckHandler!(null, permission, 'app://chainscope', {})).toBe(false)
    }
    expect(session.defaultSession.devicePermissionHandler!({ deviceType: 'usb', origin: 'app://chainscope' })).toBe(
      false,
    )
  })

  it("allows downloads of the app's own exports and refuses others", () => {
    const own = fakeEvent()
    session.defaultSession.emit('will-download', own, { getURL: () => 'blob:app://chainscope/5b0c-uuid' })
    expect(own.defaultPrevented).toBe(false)
    for (const url of ['https://evil.example/malware.exe', 'blob:https://evil.example/x', 'file:///etc/passwd']) {
      const foreign = fakeEvent()
      session.defaultSession.emit('will-download', foreign, { getURL: () => url })
      expect(foreign.defaultPrevented, url).toBe(true)
    }
    expect(isOwnDownload('data:text/csv,a,b')).toBe(true)
  })
})
