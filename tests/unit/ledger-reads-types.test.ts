// The ledger's reads and a sale's writes are declared once (ledger-reads.ts, sale-writes.ts): these are checked by `npm run typecheck`, so a read added to the table that the port's or the Ledger's types did not follow fails there.
import { describe, expectTypeOf, it } from 'vitest'
import type { Sale } from '../../electron/contract'
import type { CopiedLedger } from '../../electron/ledger/backup-copy'
import type { HistoryPage, HistoryQuery, Ledger } from '../../electron/ledger/ledger'
import type { LedgerPort } from '../../electron/ledger/ledger-port'
import type { LEDGER_READS, ReadName } from '../../electron/ledger/ledger-reads'
import type { LEDGER_WRITES, NumberedId, OpenSaleRefusal, OverLimitRefusal, WriteName } from '../../electron/ledger/sale-writes'

// Only ever named in types (hence unused, as the lint sees it): nothing here runs against a ledger.
declare const _port: LedgerPort
declare const _ledger: Ledger

type Table = typeof LEDGER_READS
type PortRead<K extends ReadName> = typeof _port.read<K>
type LedgerRead<K extends ReadName> = typeof _ledger.read<K>
type PortWrite<K extends WriteName> = typeof _port.write<K>
type WriteTable = typeof LEDGER_WRITES

describe("the ledger's one read interface", () => {
  it('names the same reads on the port, on the Ledger and in the table', () => {
    expectTypeOf<Parameters<LedgerPort['read']>[0]>().toEqualTypeOf<keyof Table>()
    expectTypeOf<Parameters<Ledger['read']>[0]>().toEqualTypeOf<keyof Table>()
  })

  it("answers each read, on the port, with the promise of the table's value for it, and takes the table's arguments", () => {
    expectTypeOf<{ [K in ReadName]: ReturnType<PortRead<K>> }>().toEqualTypeOf<{ [K in ReadName]: Promise<ReturnType<Table[K]>> }>()
    expectTypeOf<{ [K in ReadName]: ReturnType<LedgerRead<K>> }>().toEqualTypeOf<{ [K in ReadName]: ReturnType<Table[K]> }>()
    expectTypeOf<{ [K in ReadName]: Parameters<PortRead<K>> }>().toEqualTypeOf<{ [K in ReadName]: Parameters<LedgerRead<K>> }>()
  })

  it('types a read by its name', () => {
    expectTypeOf<ReturnType<PortRead<'getSale'>>>().toEqualTypeOf<Promise<Sale | null>>()
    expectTypeOf<ReturnType<PortRead<'historySearch'>>>().toEqualTypeOf<Promise<HistoryPage>>()
    expectTypeOf<Parameters<PortRead<'historySearch'>>>().toEqualTypeOf<['historySearch', HistoryQuery]>()
    expectTypeOf<Parameters<PortRead<'couponSales'>>>().toEqualTypeOf<['couponSales', number?]>()
    expectTypeOf<Parameters<PortRead<'getSale'>>>().not.toEqualTypeOf<['getSale', number]>()
  })

  it("types the ledger's other work on the port from the Ledger's own methods", () => {
    expectTypeOf<LedgerPort['snapshot']>().toEqualTypeOf<() => Promise<void>>()
    expectTypeOf<LedgerPort['archiveClosedYears']>().toEqualTypeOf<(today: string) => Promise<string[]>>()
    expectTypeOf<LedgerPort['copyOffDisk']>().toEqualTypeOf<(into: string) => Promise<CopiedLedger>>()
    expectTypeOf<LedgerPort['auditJournal']>().returns.toEqualTypeOf<ReturnType<Ledger['auditJournal']>>()
  })

  it("types a sale's writes on the port from their table: its arguments past who writes (the port stamps that), and the promise of its value", () => {
    expectTypeOf<Parameters<LedgerPort['write']>[0]>().toEqualTypeOf<keyof WriteTable>()
    expectTypeOf<{ [K in WriteName]: ReturnType<PortWrite<K>> }>().toEqualTypeOf<{ [K in WriteName]: ReturnType<WriteTable[K]> }>()
    expectTypeOf<ReturnType<PortWrite<'rechargeIntent'>>>().toEqualTypeOf<Promise<{ sale: Sale } | OpenSaleRefusal | OverLimitRefusal>>()
    expectTypeOf<Parameters<PortWrite<'rechargeIntent'>>[2]>().toEqualTypeOf<NumberedId>()
    expectTypeOf<ReturnType<PortWrite<'rechargeOutcome'>>>().toEqualTypeOf<Promise<Sale>>()
  })
})
