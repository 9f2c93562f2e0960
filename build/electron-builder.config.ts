import type { Configuration } from 'electron-builder'

/**
 * Packaging (`npm run dist`): AppImage and deb on Linux, dmg on macOS, NSIS on Windows.
 * Needs the Electron runtime and network access (electron-builder downloads the Electron
 * build for each target and the headers to rebuild keytar against Electron's ABI).
 */

/** The anvil binary the built-in sandbox runs, outside the asar (an OS cannot execute files inside it). */
const linuxAnvil = { from: 'node_modules/@foundry-rs/anvil-linux-amd64/bin/anvil', to: 'anvil/anvil' }
/** Other platforms: put the platform's anvil binary in build/anvil/<os>/ before packaging (docs/development.md, "Desktop packages"). */
const platformAnvil = (os: 'mac' | 'win') => ({
  from: `build/anvil/${os}`,
  to: 'anvil',
  filter: ['anvil', 'anvil.exe'],
})

export const builderConfig = {
  appId: 'org.chainscope.app',
  productName: 'Chainscope',
  copyright: 'Chainscope contributors',
  directories: { output: 'dist', buildResources: 'build' },
  // The built app only: main (with the bundled sandbox, out/main/sandbox.js), preload, renderer.
  files: ['out/**/*', 'package.json', '!**/*.map', '!node_modules/@foundry-rs/**'],
  asar: true,
  // keytar is a native module: it must be a real file on disk for the OS to load it.
  asarUnpack: ['node_modules/keytar/**'],
  // The seeded sandbox chains (filled by `npm run dist` before packaging), copied to the data
  // folder on first use so the first start takes seconds (src/main/electron/sandbox-utility.ts).
  extraResources: [
    { from: 'sandbox/.state', to: 'sandbox-state', filter: ['**/*', '!scratch/**', '!*.lock/**', '!*.tmp-*/**'] },
  ],
  npmRebuild: true,
  protocols: [{ name: 'Chainscope address link', schemes: ['chainscope'] }],
  electronFuses: {
    // No `ELECTRON_RUN_AS_NODE`: the binary cannot be used as a plain Node (the sandbox runs in a utility process).
    runAsNode: false,
    // Chromium's cookie store encrypted with the OS keychain.
    enableCookieEncryption: true,
    // NODE_OPTIONS and NODE_EXTRA_CA_CERTS are ignored: no code injection through the environment.
    enableNodeOptionsEnvironmentVariable: false,
    // No --inspect/--inspect-brk and no SIGUSR1 debugger in the installed app.
    enableNodeCliInspectArguments: false,
    // The asar's header hash is embedded and checked at start (macOS, Windows): tampered code does not load.
    enableEmbeddedAsarIntegrityValidation: true,
    // Code is loaded from app.asar only, never from a loose app/ folder placed beside it.
    onlyLoadAppFromAsar: true,
    // The renderer is served from app://; file:// gets no extra powers.
    grantFileProtocolExtraPrivileges: false,
  },
  linux: {
    target: [
      { target: 'AppImage', arch: ['x64'] },
      { target: 'deb', arch: ['x64'] },
    ],
    category: 'Development',
    executableName: 'chainscope',
    synopsis: 'Desktop explorer for wallets on the Chain Data and RPC Access Service',
    extraResources: [linuxAnvil],
  },
  deb: {
    // libsecret: the OS keychain keytar talks to.
    depends: [
      'libgtk-3-0',
      'libnotify4',
      'libnss3',
      'libxss1',
      'libxtst6',
      'xdg-utils',
      'libatspi2.0-0',
      'libuuid1',
      'libsecret-1-0',
    ],
  },
  mac: {
    target: [{ target: 'dmg', arch: ['x64', 'arm64'] }],
    category: 'public.app-category.developer-tools',
    hardenedRuntime: true,
    extraResources: [platformAnvil('mac')],
  },
  dmg: { title: 'Chainscope ${version}' },
  win: {
    target: [{ target: 'nsis', arch: ['x64'] }],
    extraResources: [platformAnvil('win')],
  },
  nsis: {
    oneClick: false,
    perMachine: false,
    allowToChangeInstallationDirectory: true,
    createDesktopShortcut: true,
  },
} satisfies Configuration

export default builderConfig
