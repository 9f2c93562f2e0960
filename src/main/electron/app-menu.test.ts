import type { MenuItemConstructorOptions } from 'electron'
import { describe, expect, it, vi } from 'vitest'
import { buildMenuTemplate, type AppMenuOptions } from './app-menu'

vi.mock('electron', () => import('./testing/fake-electron'))

function setup(overrides: Partial<AppMenuOptions> = {}) {
  const options: AppMenuOptions = {
    platform: 'linux',
    isPackaged: true,
    openView: vi.fn(),
    openAddress: vi.fn(),
    readClipboard: vi.fn(async () => ''),
    notify: vi.fn(),
    ...overrides,
  }
  return { options, template: buildMenuTemplate(options) }
}

/** Every item of the template, submenus flattened. */
function items(template: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] {
  return template.flatMap((item) => [item, ...(Array.isArray(item.submenu) ? items(item.submenu) : [])])
}

const byLabel = (template: MenuItemConstructorOptions[], label: string): MenuItemConstructorOptions => {
  const found = items(template).find((i) => i.label === label)
  if (!found) throw new Error(`no menu item ${label}`)
  return found
}

const click = (item: MenuItemConstructorOptions): void => (item.click as () => void)()
/** The clipboard item reads asynchronously; its click returns that work so the test can await it. */
const clickAsync = (item: MenuItemConstructorOptions): Promise<void> => (item.click as () => Promise<void>)()

describe('application menu', () => {
  it("has the app's actions, each asking the renderer to show a screen", () => {
    const { template, options } = setup()
    click(byLabel(template, 'Open Address…'))
    click(byLabel(template, 'Watchlists'))
    click(byLabel(template, 'RPC Console'))
    click(byLabel(template, 'Settings'))
    expect(vi.mocked(options.openView).mock.calls).toEqual([['search'], ['watchlists'], ['rpc'], ['settings']])
  })

  it('opens a valid address from the clipboard as an open.address request', async () => {
    const { template, options } = setup({
      readClipboard: vi.fn(async () => '  0x52908400098527886e0f7030069857d2e4169ee7\n'),
    })
    await clickAsync(byLabel(template, 'Open Address from Clipboard'))
    expect(options.openAddress).toHaveBeenCalledExactlyOnceWith({
      address: '0x52908400098527886E0F7030069857D2E4169EE7',
      network: null,
    })
    expect(options.notify).not.toHaveBeenCalled()
  })

  it('says what is wrong when the clipboard holds no address', async () => {
    const { template, options } = setup({ readClipboard: vi.fn(async () => 'hello') })
    await clickAsync(byLabel(template, 'Open Address from Clipboard'))
    expect(options.notify).toHaveBeenCalledWith('The clipboard does not hold an address.', 'An address starts with 0x.')
    expect(options.openAddress).not.toHaveBeenCalled()
  })

  it('uses the standard roles on every platform', () => {
    for (const platform of ['linux', 'win32', 'darwin'] as const) {
      const roles = items(setup({ platform }).template)
        .map((i) => i.role)
        .filter(Boolean)
      for (const role of [
        'editMenu',
        'windowMenu',
        'reload',
        'zoomIn',
        'zoomOut',
        'resetZoom',
        'togglefullscreen',
        'about',
      ])
        expect(roles, `${platform} ${role}`).toContain(role)
      expect(roles).toContain(platform === 'darwin' ? 'appMenu' : 'quit')
    }
  })

  it('puts Settings in the app menu on macOS with Cmd+,', () => {
    const { template } = setup({ platform: 'darwin' })
    expect(template[0]!.role).toBe('appMenu')
    expect(byLabel(template, 'Settings…').accelerator).toBe('CmdOrCtrl+,')
  })

  it('offers developer tools only in unpackaged builds', () => {
    const roles = (isPackaged: boolean) => items(setup({ isPackaged }).template).map((i) => i.role)
    expect(roles(true)).not.toContain('toggleDevTools')
    expect(roles(false)).toContain('toggleDevTools')
  })

  it('leaves Ctrl/Cmd+K to the renderer and never binds one accelerator twice', () => {
    const accelerators = items(setup().template)
      .map((i) => i.accelerator)
      .filter((a): a is string => typeof a === 'string')
    expect(accelerators).not.toContain('CmdOrCtrl+K')
    expect(new Set(accelerators).size).toBe(accelerators.length)
  })
})
