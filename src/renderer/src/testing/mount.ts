import { ADDRESS_ROUTE_PATH } from '../pages/address-tabs'
import { mount, type ComponentMountingOptions } from '@vue/test-utils'
import { createPinia, setActivePinia, type Pinia } from 'pinia'
import type { Component } from 'vue'
import { createMemoryHistory, createRouter, type Router, type RouteRecordRaw } from 'vue-router'
import { installBridge } from '../platform/bridge'
import { createFakeBridge, type FakeBridge } from './fake-bridge'

export interface TestApp {
  bridge: FakeBridge
  pinia: Pinia
  router: Router
}

const stub = { template: '<div />' }

/** A fresh fake bridge and Pinia (stores subscribe to the bridge when first used). */
export function setupTestApp(routes: RouteRecordRaw[] = []): TestApp {
  const bridge = createFakeBridge()
  installBridge(bridge)
  const pinia = createPinia()
  setActivePinia(pinia)
  const router = createRouter({
    history: createMemoryHistory(),
    routes: [
      { path: '/', name: 'home', component: stub },
      { path: '/welcome', name: 'welcome', component: stub },
      {
        path: ADDRESS_ROUTE_PATH,
        name: 'address',
        component: stub,
      },
      { path: '/tx/:network/:hash', name: 'tx', component: stub },
      { path: '/block/:network/:number', name: 'block', component: stub },
      { path: '/rpc', name: 'rpc', component: stub },
      { path: '/watchlists', name: 'watchlists', component: stub },
      { path: '/settings', name: 'settings', component: stub },
      ...routes,
    ],
  })
  return { bridge, pinia, router }
}

export function mountWith<C extends Component>(component: C, t: TestApp, options: ComponentMountingOptions<C> = {}) {
  return mount(component, {
    ...options,
    attachTo: document.body,
    global: { plugins: [t.pinia, t.router], ...(options.global ?? {}) },
  } as ComponentMountingOptions<C>)
}

/** Lets pending promises (bridge answers) settle. */
export async function settle(times = 5): Promise<void> {
  for (let i = 0; i < times; i++) await Promise.resolve()
}
