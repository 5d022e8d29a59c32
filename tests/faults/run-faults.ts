// npm run faults: the whole fault matrix (every fault kind at every step, seeded), its table, the
// ledger's model-based property test over 2,000 sequences, and 200 racing starts on one folder lock.
// Exits 1 on any violation.
// Replay one run:  npm run faults -- --only <kind>:<step> --seed <n>   (add --no-model to skip the model test)
// Other options:   --sample (the npm-test sample only), --model-runs <n>, --model-seed <n>
import { FAULT_KINDS } from './fault-run'
import { checkLedgerModel } from './ledger-model'
import { runLockRace } from './lock-race'
import { BASELINE, failures, fullMatrix, runAll, SAMPLE, table } from './matrix'

const MODEL_RUNS = 2_000

function option(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`)
  return at < 0 ? undefined : process.argv[at + 1]
}

async function main(): Promise<number> {
  const only = option('only')
  let specs
  if (only) {
    const [kind, step] = only.split(':')
    if (!FAULT_KINDS.includes(kind) || !/^\d+$/.test(step ?? '')) throw new Error(`--only takes <kind>:<step>, kind one of ${FAULT_KINDS.join(', ')}`)
    specs = [{ kind, step: Number(step), seed: Number(option('seed') ?? 0) }]
  } else if (process.argv.includes('--sample')) {
    specs = SAMPLE
  } else {
    const [baseline] = await runAll([BASELINE])
    if (baseline.violations.length > 0) console.log(`The day without a fault already fails:\n${failures([baseline])}`)
    specs = [BASELINE, ...fullMatrix(baseline.fsCalls)]
  }
  const started = Date.now()
  console.log(`fault matrix: ${specs.length} runs`)
  const results = await runAll(specs, (r, i) => {
    if (r.violations.length > 0 || (i + 1) % 25 === 0) console.log(`  ${i + 1}/${specs.length} ${r.kind}:${r.step} seed ${r.seed}: ${r.violations.length} violation(s)`)
  })
  const broken = failures(results)
  if (broken) console.log(`\n${broken}`)
  if (only && process.argv.includes('--log')) console.log(results[0].log.join('\n'))
  console.log(`\n${table(results)}\n(${Math.round((Date.now() - started) / 1000)} s)`)
  // One count for the plain closing line: each fault run, the model test and the lock race.
  let passed = results.filter((r) => r.violations.length === 0).length
  let failed = results.length - passed

  if (!process.argv.includes('--no-model') && !only) {
    const runs = Number(option('model-runs') ?? MODEL_RUNS)
    const modelStarted = Date.now()
    try {
      await checkLedgerModel(runs, option('model-seed') === undefined ? undefined : Number(option('model-seed')))
      console.log(`ledger model: ${runs} sequences, 0 differences (${Math.round((Date.now() - modelStarted) / 1000)} s)`)
      passed++
    } catch (error) {
      failed++
      console.log(`ledger model: ${runs} sequences, a difference:\n${error instanceof Error ? error.message : String(error)}`)
    }
  }
  if (!only && !process.argv.includes('--sample')) {
    const race = await runLockRace()
    const lockBroken = race.overlaps > 0 || race.roundsWithoutOwner > 0 || race.problems.length > 0
    if (lockBroken) failed++
    else passed++
    console.log(`folder lock: ${race.starts} racing starts, ${race.overlaps} times two owners, ${race.roundsWithoutOwner} rounds without an owner${race.problems.length ? `, problems: ${race.problems.join('; ')}` : ''}`)
  }
  console.log(`${passed} passed, ${failed} failed`)
  return failed > 0 ? 1 : 0
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error)
    process.exit(2)
  },
)
