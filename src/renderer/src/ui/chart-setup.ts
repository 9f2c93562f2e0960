import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  DoughnutController,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  TimeScale,
  Tooltip,
} from 'chart.js'
// Gives the time axis its dates (date-fns, tree-shaken to the functions the adapter uses).
import 'chartjs-adapter-date-fns'

/** Loaded on demand (see use-chart.ts): only the pieces the charts use are bundled (lines on a time axis: balance history). */
Chart.register(
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  DoughnutController,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  TimeScale,
  Tooltip,
)

export { Chart }
