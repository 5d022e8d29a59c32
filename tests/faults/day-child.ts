// The SIGKILL run's child: the real core works the scripted day up to the chosen step and kills itself
// before the chosen ledger write of that step; the parent restarts the core on the same folder and goes on.
// Usage: node --import tsx tests/faults/day-child.ts '<ChildOrders as JSON>'
import fs from 'node:fs'
import path from 'node:path'
import { installFsShim } from './fs-shim'
import { childLine, startCore, type ChildLine, type ChildOrders } from './rig'
import { retryPass, runStep, setUpDay, type DayRig } from './shop-day'

// Synchronous on purpose: a line must be out of the process before the kill that may follow it.
const say = (line: ChildLine) => fs.writeSync(1, childLine(line) + '\n')

async function main(): Promise<void> {
  const orders = JSON.parse(process.argv[2] ?? '') as ChildOrders
  const shim = installFsShim(path.join(orders.dataDir, 'ledger'))
  const counter = await startCore(orders.dataDir, orders.providerUrl, () => new Date(), (line) => process.stderr.write(line + '\n'))
  const rig: DayRig = {
    counter: () => counter,
    clockRight: () => true,
    fundWallet: (paise) => say({ kind: 'FUND', paise }),
    attempting: (key) => say({ kind: 'ATTEMPT', key }),
  }
  const state = await setUpDay(rig)
  say({ kind: 'STATE', state })
  for (let step = 0; step <= orders.step; step++) {
    await retryPass(rig, state)
    if (step === orders.step) shim.arm({ cls: 'any', occurrence: orders.call }, { kind: 'die' })
    await runStep(rig, state, step)
    say({ kind: 'STATE', state })
  }
  say({ kind: 'MISSED' })
  await counter.close()
}

main().catch((error: unknown) => {
  process.stderr.write(`the child failed: ${error instanceof Error ? error.stack : String(error)}\n`)
  process.exit(3)
})
