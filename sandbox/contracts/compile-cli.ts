import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { artifactsToJson, compileContracts } from './compile'

/** `npm run sandbox:compile`: regenerates artifacts.json after a contract source changes. */
const started = Date.now()
const artifacts = await compileContracts()
const target = join(import.meta.dirname, 'artifacts.json')
writeFileSync(target, artifactsToJson(artifacts))
process.stderr.write(
  `compiled ${Object.keys(artifacts.contracts).length} contracts with solc ${artifacts.compiler} in ${((Date.now() - started) / 1000).toFixed(1)} s -> ${target}\n`,
)
