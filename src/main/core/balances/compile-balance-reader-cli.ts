import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { bytecodeModule, compileBalanceReader } from './compile-balance-reader'

/** `npm run compile:balance-reader`: regenerates balance-reader-bytecode.ts after BalanceReader.sol changes. */
const target = join(import.meta.dirname, 'balance-reader-bytecode.ts')
const compiled = await compileBalanceReader()
writeFileSync(target, bytecodeModule(compiled))
process.stderr.write(`compiled BalanceReader with solc ${compiled.compiler} -> ${target}\n`)
