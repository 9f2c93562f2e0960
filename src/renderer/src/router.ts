import { ADDRESS_ROUTE_PATH } from './pages/address-tabs'
import { createRouter, createWebHashHistory, type Router } from 'vue-router'
import HomeView from './pages/HomeView.vue'
import { useSessionStore } from './platform/session-store'

/**
 * Hash history works under both app:// (Electron) and the web host. Every view but the
 * home page is loaded on demand to keep the first download small.
 */
export function createAppRouter(): Router {
  const router = createRouter({
    history: createWebHashHistory(),
    routes: [
      { path: '/', name: 'home', component: HomeView },
      {
        path: '/welcome',
        name: 'welcome',
        component: () => import('./pages/WelcomeView.vue'),
        meta: { open: true },
      },
      {
        path: ADDRESS_ROUTE_PATH,
        name: 'address',
        component: () => import('./pages/AddressView.vue'),
      },
      {
        path: '/tx/:network/:hash',
        name: 'tx',
        component: () => import('./pages/TxView.vue'),
      },
      {
        path: '/block/:network/:number',
        name: 'block',
        component: () => import('./pages/BlockView.vue'),
      },
      {
        path: '/cases/:id',
        name: 'case',
        component: () => import('./pages/CaseView.vue'),
        props: true,
        meta: { open: true },
      },
      { path: '/rpc', name: 'rpc', component: () => import('./pages/RpcView.vue') },
      {
        path: '/watchlists',
        name: 'watchlists',
        component: () => import('./pages/WatchlistsView.vue'),
        meta: { open: true },
      },
      {
        path: '/settings',
        name: 'settings',
        component: () => import('./pages/SettingsView.vue'),
        meta: { open: true },
      },
      {
        path: '/:rest(.*)*',
        name: 'not-found',
        component: () => import('./pages/NotFoundView.vue'),
        meta: { open: true },
      },
    ],
  })

  // A first run (no active profile) starts at the welcome; saved data stays reachable.
  router.beforeEach(async (to) => {
    const session = useSessionStore()
    if (!session.loaded) await session.load()
    if (!session.active && !to.meta.open) return { name: 'welcome' }
    return true
  })
  return router
}
