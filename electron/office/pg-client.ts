// The PostgreSQL client, loaded when a counter first reaches its office: a shop without one never loads it.
import type pg from 'pg'

/**
 * Decision: loaded on first use, not imported. Loading `pg` took 75 ms of a counter's 300 ms of module loading at
 * start (it pulls in Node's fetch), and the office is reached seconds after start or never.
 */
export async function postgresClient(config: pg.ClientConfig): Promise<pg.Client> {
  const { default: postgres } = await import('pg')
  return new postgres.Client(config)
}
