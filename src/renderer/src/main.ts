import { createPinia } from 'pinia'
import { createApp } from 'vue'
import 'vue-sonner/style.css'
import './styles.css'
import App from './App.vue'
import { createAppRouter } from './router'
import { adoptWebSession } from './platform/bridge/web-session'

// Before the router reads the address's fragment, which may carry the web host's session.
adoptWebSession()

const app = createApp(App)
app.use(createPinia())
app.use(createAppRouter())
app.mount('#app')
