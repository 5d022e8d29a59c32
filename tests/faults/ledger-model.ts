// The ledger against a plain in-memory model (fast-check commands): random appends of sale intents, outcomes
// and top-ups, snapshots, clean reopens, crashes that leave an unfinished last line, damaged committed lines and
// day closes; after each, the real ledger's sales, states, amounts, top-ups, closed days and last seq must be the model's.
import fs from 'node:fs'
import path from 'node:path'
import fc from 'fast-check'
import { DayClosedError, Ledger } from '../../electron/ledger/ledger'
import { tempDir } from '../integration/helpers'

const DAYS = ['2026-11-20', '2026-11-21', '2026-11-22'] as const
const OUTCOMES = ['SUCCESS', 'FAILED', 'UNKNOWN'] as const
const FIXED_CLOCK = () => new Date('2026-11-22T06:30:00.000Z')

interface Model {
  seq: number
  /** The seq the newest snapshot reflects: lines up to it are not re-verified when the ledger opens. */
  snapshotSeq: number
  sales: Map<string, { amountPaise: number; state: string; day: string }>
  topups: Map<string, number>
  closed: Set<string>
  nextId: number
}

interface Real {
  dir: string
  remove(): void
  ledger: Ledger
}

const journalDir = (dir: string) => path.join(dir, 'journal')
const lastSegment = (dir: string) =>
  path.join(
    journalDir(dir),
    fs.readdirSync(journalDir(dir)).filter((n) => n.endsWith('.ndjson')).sort().at(-1)!,
  )

async function reopen(real: Real): Promise<void> {
  real.ledger = await Ledger.open({ dir: real.dir, now: FIXED_CLOCK })
}

/**
 * A write the model says must be refused as a closed day's; anything else thrown is a failure. Books
 * close in order (Ledger.closedDayOf): nothing is booked on or before the latest closed day.
 */
function appendOrRefused(model: Model, day: string, write: () => void): boolean {
  const refused = [...model.closed].some((closed) => day <= closed)
  try {
    write()
  } catch (error) {
    if (refused && error instanceof DayClosedError) return false
    throw error
  }
  if (refused) throw new Error(`the ledger booked onto closed day ${day}`)
  model.seq += 1
  return true
}

function compare(model: Model, { ledger }: Real): void {
  const fail = (what: string) => {
    throw new Error(`ledger differs from the model: ${what}`)
  }
  if (ledger.readOnly) fail(`read-only: ${ledger.readOnly}`)
  if (ledger.read('lastSeq') !== model.seq) fail(`lastSeq ${ledger.read('lastSeq')}, model ${model.seq}`)
  const sales = DAYS.flatMap((day) => ledger.read('salesForDay', day))
  if (sales.length !== model.sales.size) fail(`${sales.length} sales, model ${model.sales.size}`)
  for (const sale of sales) {
    const expected = model.sales.get(sale.orderId)
    if (!expected) fail(`sale ${sale.orderId} is not in the model`)
    else if (sale.state !== expected.state || sale.amountPaise !== expected.amountPaise) {
      fail(`sale ${sale.orderId} is ${sale.state} ${sale.amountPaise}, model ${expected.state} ${expected.amountPaise}`)
    }
  }
  const topups = ledger.read('topups')
  if (topups.length !== model.topups.size || topups.some((t) => model.topups.get(t.topupId) !== t.amountPaise)) {
    fail(`top-ups ${JSON.stringify(topups.map((t) => [t.topupId, t.amountPaise]))}, model ${JSON.stringify([...model.topups])}`)
  }
  for (const day of DAYS) if ((ledger.read('dayClosure', day) !== null) !== model.closed.has(day)) fail(`day ${day} closed: ${!model.closed.has(day)}`)
}

type Command = fc.AsyncCommand<Model, Real>

const command = (name: string, check: (m: Readonly<Model>) => boolean, run: (m: Model, r: Real) => Promise<void> | void): Command => ({
  check,
  async run(model, real) {
    await run(model, real)
    compare(model, real)
  },
  toString: () => name,
})

const intent = (amountPaise: number, dayIndex: number) =>
  command(`intent(${amountPaise}, ${DAYS[dayIndex]})`, () => true, (model, real) => {
    const day = DAYS[dayIndex]
    const orderId = `CN${String(model.nextId++).padStart(6, '0')}`
    const data = {
      orderId,
      kind: 'mobile' as const,
      number: '9876500000',
      operatorCode: 'AT',
      operatorName: 'Airtel',
      circle: null,
      amountPaise,
      businessDay: day,
      training: false,
      paymentMode: 'cash' as const,
    }
    if (appendOrRefused(model, day, () => real.ledger.append('recharge.intent', data))) model.sales.set(orderId, { amountPaise, state: 'SENDING', day })
  })

/** An answer for the `pick`-th sale still open (its own day may be closed: outcomes are always recorded). */
const outcome = (pick: number, answer: (typeof OUTCOMES)[number]) =>
  command(`outcome(#${pick}, ${answer})`, (m) => [...m.sales.values()].some((s) => s.state === 'SENDING' || s.state === 'UNKNOWN'), (model, real) => {
    const open = [...model.sales].filter(([, s]) => s.state === 'SENDING' || s.state === 'UNKNOWN')
    const [orderId, sale] = open[pick % open.length]
    real.ledger.append('recharge.outcome', { orderId, source: 'transaction', outcome: answer, providerStatus: answer, message: answer, fpayId: null, operatorRef: null })
    model.seq += 1
    sale.state = answer
  })

const topup = (amountPaise: number, dayIndex: number) =>
  command(`topup(${amountPaise}, ${DAYS[dayIndex]})`, () => true, (model, real) => {
    const day = DAYS[dayIndex]
    const topupId = `PW${String(model.nextId++).padStart(6, '0')}`
    if (appendOrRefused(model, day, () => real.ledger.append('pan.topup', { topupId, amountPaise, reference: `UTR${topupId}`, note: '', businessDay: day }))) {
      model.topups.set(topupId, amountPaise)
    }
  })

const closeDay = (dayIndex: number) =>
  command(`close(${DAYS[dayIndex]})`, (m) => !m.closed.has(DAYS[dayIndex]), (model, real) => {
    const businessDay = DAYS[dayIndex]
    const counted = { n500: 0, n200: 0, n100: 0, n50: 0, n20: 0, n10: 0, coinsPaise: 0 }
    real.ledger.append('day.closed', {
      businessDay,
      openingFloatPaise: 0,
      counted,
      countedPaise: 0,
      expectedCashPaise: 0,
      closingPanBalancePaise: null,
      openingPanBalancePaise: null,
      overrideNote: null,
      summary: {},
    })
    model.seq += 1
    model.closed.add(businessDay)
  })

const snapshot = command('snapshot', () => true, async (model, real) => {
  await real.ledger.snapshot()
  model.snapshotSeq = model.seq
})

const cleanReopen = command('reopen', () => true, async (model, real) => {
  await real.ledger.close()
  model.snapshotSeq = model.seq
  await reopen(real)
})

/**
 * A crash mid-append: the process dies with `keep` bytes of the next line on disk, no newline. Only
 * that unfinished line may be lost: the open cuts it off and every committed line stays.
 */
const tornTail = (keep: number) =>
  command(`crash(torn tail of ${keep} bytes)`, () => true, async (_model, real) => {
    // The disk as the dying process left it: a copy taken while the ledger is open (no closing snapshot).
    const crashed = tempDir('counter-model-')
    fs.cpSync(real.dir, crashed.path, { recursive: true })
    await real.ledger.close()
    real.remove()
    Object.assign(real, { dir: crashed.path, remove: crashed.remove })
    const next = JSON.stringify({ seq: real.ledger.read('lastSeq') + 1, at: FIXED_CLOCK().toISOString(), type: 'pan.topup', data: { topupId: 'PW-LOST' } })
    fs.appendFileSync(lastSegment(real.dir), next.slice(0, 1 + (keep % (next.length - 1))))
    await reopen(real)
  })

/**
 * A committed line changed on disk (one byte, newline kept): corruption, not a torn write. The model
 * predicts read-only: at open when the line is past the snapshot, else at the whole-journal audit.
 * The file is then put back as it was and the ledger reopened, so the sequence goes on.
 */
const damage = (linePick: number, bytePick: number) =>
  command(`damage(line #${linePick}, byte ${bytePick})`, (m) => m.seq > 0, async (model, real) => {
    await real.ledger.close()
    model.snapshotSeq = model.seq
    const file = lastSegment(real.dir)
    const original = fs.readFileSync(file)
    const lines = original.toString('utf8').split('\n').slice(0, -1)
    const index = linePick % lines.length
    const line = lines[index]
    const at = bytePick % line.length
    const replacement = line[at] === '#' ? '%' : '#'
    lines[index] = line.slice(0, at) + replacement + line.slice(at + 1)
    fs.writeFileSync(file, lines.join('\n') + '\n')
    try {
      await reopen(real)
      const seq = Number(/"seq":(\d+)/.exec(line)?.[1])
      if (seq > model.snapshotSeq && !real.ledger.readOnly) throw new Error(`a damaged line past the snapshot (#${seq}) left the ledger writable`)
      const audit = await real.ledger.auditJournal()
      if (audit.ok || !real.ledger.readOnly) throw new Error(`the audit did not notice damaged line #${seq} (byte ${at})`)
      await real.ledger.close()
    } finally {
      fs.writeFileSync(file, original)
    }
    await reopen(real)
  })

const commands = [
  fc.tuple(fc.integer({ min: 1, max: 99_999_00 }), fc.nat(DAYS.length - 1)).map(([paise, day]) => intent(paise, day)),
  fc.tuple(fc.nat(), fc.constantFrom(...OUTCOMES)).map(([pick, answer]) => outcome(pick, answer)),
  fc.tuple(fc.integer({ min: 1, max: 10_00_000_00 }), fc.nat(DAYS.length - 1)).map(([paise, day]) => topup(paise, day)),
  fc.nat(DAYS.length - 1).map(closeDay),
  fc.constant(snapshot),
  fc.constant(cleanReopen),
  fc.nat(10_000).map(tornTail),
  fc.tuple(fc.nat(), fc.nat()).map(([line, byte]) => damage(line, byte)),
]

export function ledgerModelProperty(maxCommands = 25) {
  return fc.asyncProperty(fc.commands(commands, { maxCommands }), async (cmds) => {
    const dir = tempDir('counter-model-')
    const real: Real = { dir: dir.path, remove: dir.remove, ledger: await Ledger.open({ dir: dir.path, now: FIXED_CLOCK }) }
    const model: Model = { seq: 0, snapshotSeq: 0, sales: new Map(), topups: new Map(), closed: new Set(), nextId: 1 }
    try {
      await fc.asyncModelRun(() => ({ model, real }), cmds)
    } finally {
      await real.ledger.close().catch(() => undefined)
      real.remove()
    }
  })
}

/** Runs `numRuns` sequences; throws fast-check's report (with its seed and shrunk sequence) on a difference. */
export async function checkLedgerModel(numRuns: number, seed?: number): Promise<void> {
  await fc.assert(ledgerModelProperty(), { numRuns, seed })
}
