// Suggestions at scale: 100,000 sales to 30,000 numbers written as a real journal and replayed by the ledger; every 4-digit suggestion checked against the sales themselves, the time printed (a measurement, not a pass mark).
import { performance } from 'node:perf_hooks'
import path from 'node:path'
import { expect, it } from 'vitest'
import type { Customer } from '../../electron/contract'
import { JOURNAL_DIR } from '../../electron/ledger/segments'
import { Ledger } from '../../electron/ledger/ledger'
import { JournalWriter } from '../bench/build-ledgers'
import { tempDir } from './helpers'

const SALES = 100_000
const NUMBERS = 25_000
/** A fifth of the customers share the prefix 98765: the widest range a suggestion can sort. */
const CLUSTERED = 5_000
const numberOf = (k: number): string => (k < CLUSTERED ? `98765${String(k * 17).padStart(5, '0')}` : String(6_000_000_000 + ((k * 2_654_435_761) % 4_000_000_000)))
const OPERATORS = [['AT', 'Airtel'], ['RJP', 'Jio'], ['VI', 'Vi (Vodafone Idea)']] as const

it('answers 4-digit suggestions correctly from 100,000 sales, and prints how fast', { timeout: 300_000 }, async () => {
  const dir = tempDir('counter-customer-scale-')
  try {
    const writer = new JournalWriter(path.join(dir.path, JOURNAL_DIR))
    // What the books must say, worked out here from the same sales.
    const expected = new Map<string, Customer>()
    // mulberry32: the same sales every run.
    let seed = 7
    const random = () => {
      seed = (seed + 0x6d2b79f5) | 0
      let x = Math.imul(seed ^ (seed >>> 15), 1 | seed)
      x = (x + Math.imul(x ^ (x >>> 7), 61 | x)) ^ x
      return ((x ^ (x >>> 14)) >>> 0) / 2 ** 32
    }
    const begun = performance.now()
    const start = Date.parse('2025-04-01T03:30:00.000Z')
    for (let i = 0; i < SALES; i++) {
      const number = numberOf(Math.floor(random() * NUMBERS))
      const [operatorCode, operatorName] = OPERATORS[Math.floor(random() * OPERATORS.length)]
      const amountPaise = (10 + Math.floor(random() * 990)) * 100
      const at = new Date(start + i * 20_000).toISOString()
      const orderId = `CN${i}`
      writer.write({
        at,
        type: 'recharge.intent',
        data: { orderId, kind: 'mobile', number, operatorCode, operatorName, circle: 'DL', amountPaise, businessDay: at.slice(0, 10), training: false, collectedPaise: amountPaise, paymentMode: 'cash' },
      })
      writer.write({ at, type: 'recharge.outcome', data: { orderId, source: 'transaction', outcome: 'SUCCESS', providerStatus: 'Success', message: 'Done', fpayId: `F${i}`, operatorRef: `O${i}` } })
      const known = expected.get(number)
      expected.set(number, { number, kind: 'mobile', name: known?.name ?? null, operatorCode, operatorName, circle: 'DL', lastAmountPaise: amountPaise, lastAt: at, sales: (known?.sales ?? 0) + 1 })
      if (i % 97 === 0) {
        writer.write({ at, type: 'customer.named', data: { number, name: `Customer ${i}` } })
        expected.get(number)!.name = `Customer ${i}`
      }
    }
    writer.finish()

    const written = performance.now()
    const ledger = await Ledger.open({ dir: dir.path })
    const opened = performance.now()
    try {
      expect(ledger.report.problems).toEqual([])
      const all = [...new Set([...expected.keys()].map((number) => number.slice(0, 4)))]
      // Every 10th prefix in use, the clustered one, and two no number starts with.
      const prefixes = [...all.filter((_, i) => i % 10 === 0), '9876', '98765', '9999', '5000']
      const timings: number[] = []
      for (const digits of prefixes) {
        const begun = performance.now()
        const found = ledger.read('customerSuggestions', digits, 8)
        timings.push(performance.now() - begun)
        const wanted = [...expected.values()]
          .filter((customer) => customer.number.startsWith(digits))
          .sort((a, b) => (a.lastAt !== b.lastAt ? (a.lastAt < b.lastAt ? 1 : -1) : a.number < b.number ? -1 : 1))
          .slice(0, 8)
        expect(found).toEqual(wanted)
        if (digits === '9876') expect(found.length).toBe(8)
      }
      const wide: number[] = []
      for (let i = 0; i < 50; i++) {
        const begun = performance.now()
        ledger.read('customerSuggestions', '9876', 8)
        wide.push(performance.now() - begun)
      }
      wide.sort((a, b) => a - b)
      timings.sort((a, b) => a - b)
      const at = (q: number) => timings[Math.min(timings.length - 1, Math.floor(q * timings.length))].toFixed(2)
      const widest = [...expected.keys()].filter((number) => number.startsWith('9876')).length
      console.log(
        `customers.suggest over ${SALES.toLocaleString('en-IN')} sales, ${expected.size.toLocaleString('en-IN')} customers, ${prefixes.length} prefixes (the widest, 9876, matching ${widest}): p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms; 9876 asked 50 times: median ${wide[25].toFixed(2)} ms, max ${wide[49].toFixed(2)} ms (journal written in ${((written - begun) / 1000).toFixed(1)} s, replayed by Ledger.open in ${((opened - written) / 1000).toFixed(1)} s)`,
      )
    } finally {
      await ledger.close()
    }
  } finally {
    dir.remove()
  }
})
