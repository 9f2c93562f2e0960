import { createRouter, createWebHashHistory, type Router } from 'vue-router'
import HomeView from './views/HomeView.vue'
import { useSessionStore } from './stores/session'

/**
 * Hash history works under both app:// (Electron) and the web host. Every view but the
 * home page is loaded on demand to keep the first download small.
 */
export function createAppRouter(): Router {
  const router = createRouter({
    history: createWebHashHistory(),
    routes: [
      { path: '/', name: 'home', component: HomeView },
      { path: '/welcome', name: 'welcome', component: () => import('./views/WelcomeView.vue'), meta: { open: true } },
      {
        path: '/address/:network/:address/:tab(balances|transactions|counterparties|history)?',
        name: 'address',
        component: () => import('./views/AddressView.vue'),
      },
      { path: '/rpc', name: 'rpc', component: () => import('./views/RpcView.vue') },
      { path: '/watchlists', name: 'watchlists', component: () => import('./views/WatchlistsView.vue'), meta: { open: true } },
      { path: '/settings', name: 'settings', component: () => import('./views/SettingsView.vue'), meta: { open: true } },
      { path: '/:rest(.*)*', name: 'not-found', component: () => import('./views/NotFoundView.vue'), meta: { open: true } },
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
