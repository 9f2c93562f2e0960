import { createRouter, createWebHashHistory, type Router } from 'vue-router'
import HomeView from './features/address/HomeView.vue'
import { useSessionStore } from './features/shell/session-store'

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
        component: () => import('./features/setup/WelcomeView.vue'),
        meta: { open: true },
      },
      {
        path: '/address/:network/:address/:tab(balances|transactions|counterparties|history|approvals)?',
        name: 'address',
        component: () => import('./features/address/AddressView.vue'),
      },
      { path: '/rpc', name: 'rpc', component: () => import('./features/rpc/RpcView.vue') },
      {
        path: '/watchlists',
        name: 'watchlists',
        component: () => import('./features/watchlists/WatchlistsView.vue'),
        meta: { open: true },
      },
      {
        path: '/settings',
        name: 'settings',
        component: () => import('./features/settings/SettingsView.vue'),
        meta: { open: true },
      },
      {
        path: '/:rest(.*)*',
        name: 'not-found',
        component: () => import('./features/shell/NotFoundView.vue'),
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
