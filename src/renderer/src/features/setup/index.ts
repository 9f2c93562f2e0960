/**
 * Setting up a profile: the key form, the service setup, sample wallets, the sandbox's stages.
 * Other features and pages import this feature only through this file.
 */
export { default as SampleWallets } from './SampleWallets.vue'
export { default as KeyForm } from './KeyForm.vue'
export { default as ServiceSetup } from './ServiceSetup.vue'
export { sandboxStages } from './sandbox-stage'
