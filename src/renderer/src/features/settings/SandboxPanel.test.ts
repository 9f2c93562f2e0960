import { beforeEach, describe, expect, it } from 'vitest'
import { flushPromises } from '@vue/test-utils'
import type { SandboxStatus } from '@shared/bridge/contract'
import { sandboxProfile } from '../../testing/samples'
import { mountWith, setupTestApp, type TestApp } from '../../testing/mount'
import { FakeBridgeFailure } from '../../testing/fake-bridge'
import { useSessionStore } from '../../platform/session-store'
import { formatDateTime } from '../../ui/time'
import SandboxPanel from './SandboxPanel.vue'

const READY: SandboxStatus = { state: 'ready', message: null, progress: null }
const AT = '2026-11-27T07:33:12.000Z'

function button(name: string): HTMLButtonElement | undefined {
  return [...document.body.querySelectorAll('button')].find((b) => b.textContent?.trim() === name)
}

describe('SandboxPanel', () => {
  let t: TestApp
  beforeEach(() => {
    t = setupTestApp()
    useSessionStore().profiles = [sandboxProfile(true, true)]
    useSessionStore().sandbox = READY
  })

  it('Stop asks main to stop it and then offers Start, saying the chains are saved', async () => {
    t.bridge.handle('sandbox.stop', () => ({
      state: 'stopped',
      message: 'stopped',
      progress: null,
      stoppedAt: AT,
      unexpected: false,
    }))
    const w = mountWith(SandboxPanel, t)
    expect(w.get('[role="status"]').text()).toBe('The sandbox is running.')
    expect(button('Start sandbox')).toBeUndefined()
    button('Stop sandbox')!.click()
    await flushPromises()
    expect(t.bridge.callsOf('sandbox.stop')).toEqual([{}])
    expect(w.get('[role="status"]').text()).toBe(
      `The sandbox is stopped (since ${formatDateTime(Date.parse(AT))}). Its chains are saved.`,
    )
    expect(button('Stop sandbox')).toBeUndefined()
    expect(button('Start sandbox')).toBeDefined()
    w.unmount()
  })

  it('says a sandbox stopped unexpectedly, with its time, and starts it again on request', async () => {
    t.bridge.handle('sandbox.start', () => ({
      state: 'starting',
      message: 'Starting the built-in sandbox…',
      progress: null,
    }))
    const w = mountWith(SandboxPanel, t)
    t.bridge.emit('sandbox', { state: 'stopped', message: 'x', progress: null, stoppedAt: AT, unexpected: true })
    await flushPromises()
    expect(w.get('[role="alert"]').text()).toBe(
      `The sandbox stopped unexpectedly at ${formatDateTime(Date.parse(AT))}. Its chains resume from their last save.`,
    )
    button('Start sandbox')!.click()
    await flushPromises()
    expect(t.bridge.callsOf('sandbox.start')).toEqual([{}])
    expect(w.get('[role="status"]').text()).toBe('Starting the built-in sandbox…')
    expect(button('Stop sandbox')).toBeDefined()
    w.unmount()
  })

  it('Reset asks first, and only a confirmed reset reaches main', async () => {
    t.bridge.handle('sandbox.reset', () => ({ state: 'starting', message: null, progress: null }))
    const w = mountWith(SandboxPanel, t)
    button('Reset sandbox…')!.click()
    await flushPromises()
    expect(document.body.textContent).toContain('Reset the sandbox?')
    button('Keep the chains')!.click()
    await flushPromises()
    expect(t.bridge.callsOf('sandbox.reset')).toEqual([])
    button('Reset sandbox…')!.click()
    await flushPromises()
    button('Reset sandbox')!.click()
    await flushPromises()
    expect(t.bridge.callsOf('sandbox.reset')).toEqual([{ confirm: true }])
    w.unmount()
  })

  it('shows why a control failed', async () => {
    useSessionStore().sandbox = { state: 'stopped', message: null, progress: null, stoppedAt: AT, unexpected: false }
    t.bridge.handle('sandbox.start', () => {
      throw new FakeBridgeFailure({ kind: 'offline', message: 'anvil not found' })
    })
    const w = mountWith(SandboxPanel, t)
    button('Start sandbox')!.click()
    await flushPromises()
    expect(w.get('.field-error[role="alert"]').text()).toBe('anvil not found')
    w.unmount()
  })
})
