// The office's read-only connection: the office page's and a counter's visits that only read the office's books.
import type pg from 'pg'
import { officeConnection, type OfficeAddress } from './shipper'

/**
 * How a reader connects. Decision: every transaction is read-only in the server itself
 * (default_transaction_read_only), so a mistake in this code does not write to the office's books. That is a
 * session's default, which the session can turn off: what forbids writing is the login, a member of the office's
 * reader role (migrations.ts OFFICE_ROLES; README, Head office).
 * Its own file, below both readers: the office view reads the shop's facts (shop-facts.ts), which connects this way too.
 */
export function readOnlyClientConfig(office: OfficeAddress): pg.ClientConfig {
  return {
    ...officeConnection(office),
    options: '-c default_transaction_read_only=on',
    connectionTimeoutMillis: 10_000,
    query_timeout: 20_000,
    application_name: 'counter office view',
  }
}
