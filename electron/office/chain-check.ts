// The office's tamper check: every terminal's stored hash chain recomputed from what the office holds, naming each line changed, deleted or out of its chain.
import type { ClientBase } from 'pg'
import { GENESIS_HASH } from '../ledger/segments'

/**
 * What is wrong with a line the office holds. `edited`: its text no longer hashes to its hash, or what the views read
 * (data, at, type, seq) differs from its text. `missing`: lines the office acknowledged and no longer holds (deleted).
 * `unlinked`: a line whose link to the line before differs: one of the two was changed with its hash recomputed.
 * `end`: the last line held is not the one the office acknowledged as the terminal's end (changed the same way).
 */
export type TamperKind = 'edited' | 'missing' | 'unlinked' | 'end'

export interface TamperRow {
  terminal: string
  /** The line (its seq); for `missing`, the first of the run that `through` ends. */
  seq: bigint
  through: bigint
  kind: TamperKind
}

export interface ChainCheck {
  checkedAt: Date
  terminals: number
  entries: bigint
  /** Lines received before office migration 8 kept their text: their links are checked, their hashes cannot be recomputed. */
  textless: bigint
  /** In terminal and line order, at most PROBLEMS_LISTED. */
  problems: TamperRow[]
  /** How many problems there are in all. */
  problemCount: number
}

/** Decision: a page of problems is enough to act on; a table of thousands (a whole terminal's lines deleted one by one) says no more. */
export const PROBLEMS_LISTED = 200

/**
 * Decision: in SQL, over every line at every check, never only the lines since the last one: a row changed years back
 * is as much a problem as one changed today, and PostgreSQL hashes its rows where they are (a million in under a
 * minute here, office-view.ts CHECK_TIMEOUT_MS) where fetching them would move the whole journal. The hash is segments.ts hashEntry's: sha256 of prev, a newline and
 * the body's text. `at` is compared as the journal writes it (toISOString). Links: each line's prev is the hash of the
 * line before it, the first line's the genesis hash, or, for a terminal registered anew after a fork, its parent's line
 * where they part (held_hash, office migration 7). terminals.last_seq/last_hash (the chain's end the office
 * acknowledged) find lines deleted or changed at the end, where no later line's link would.
 */
const CHECK_SQL = `
  WITH starts AS (
    SELECT terminal, last_seq, last_hash, GREATEST(parent_through, COALESCE(($3::jsonb ->> terminal)::bigint, 0)) AS held_after FROM terminals
  ), lines AS (
    SELECT e.terminal, e.seq, e.prev, e.hash, e.body IS NULL AS textless,
           lag(e.seq) OVER w AS before_seq, lag(e.hash) OVER w AS before_hash, lead(e.seq) OVER w IS NULL AS last_held,
           encode(sha256(convert_to(e.prev || E'\\n' || e.body::text, 'UTF8')), 'hex') = e.hash
             AND kept.body -> 'seq' = to_jsonb(e.seq)
             AND kept.body ->> 'at' = to_char(e.at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
             AND kept.body ->> 'type' = e.type
             AND kept.body -> 'data' = e.data AS agrees
    FROM entries e
    -- The text parsed once a row (a function in FROM is not inlined): each json -> would parse all of it again, twice the time.
    CROSS JOIN LATERAL to_jsonb(e.body) AS kept (body)
    WINDOW w AS (PARTITION BY e.terminal ORDER BY e.seq)
  ), problems AS (
    SELECT terminal, seq, seq AS through, 'edited' AS kind FROM lines WHERE NOT textless AND agrees IS NOT TRUE
    UNION ALL
    SELECT terminal, before_seq + 1, seq - 1, 'missing' FROM lines WHERE seq > before_seq + 1
    UNION ALL
    SELECT terminal, seq, seq, 'unlinked' FROM lines WHERE seq = before_seq + 1 AND prev <> before_hash
    UNION ALL
    SELECT l.terminal, t.held_after + 1, l.seq - 1, 'missing' FROM lines l JOIN starts t ON t.terminal = l.terminal
    WHERE l.before_seq IS NULL AND l.seq > t.held_after + 1
    UNION ALL
    SELECT l.terminal, l.seq, l.seq, 'unlinked' FROM lines l JOIN starts t ON t.terminal = l.terminal
    WHERE l.before_seq IS NULL AND l.seq = t.held_after + 1
      AND l.prev IS DISTINCT FROM CASE WHEN l.seq = 1 THEN $1 ELSE held_hash(l.terminal, l.seq - 1) END
    UNION ALL
    SELECT t.terminal, COALESCE(l.seq, t.held_after) + 1, t.last_seq, 'missing' FROM starts t
    LEFT JOIN lines l ON l.terminal = t.terminal AND l.last_held
    WHERE t.last_seq > COALESCE(l.seq, t.held_after)
    UNION ALL
    SELECT l.terminal, l.seq, l.seq, 'end' FROM lines l JOIN terminals t ON t.terminal = l.terminal
    WHERE l.last_held AND l.seq = t.last_seq AND l.hash <> t.last_hash
  ), listed AS (
    SELECT * FROM problems ORDER BY terminal, seq, kind LIMIT $2
  )
  SELECT (SELECT count(*) FROM terminals)::int AS terminals,
         (SELECT count(*) FROM lines) AS entries,
         (SELECT count(*) FILTER (WHERE textless) FROM lines) AS textless,
         (SELECT count(*) FROM problems)::int AS problem_count,
         (SELECT COALESCE(json_agg(json_build_object('terminal', terminal, 'seq', seq::text, 'through', through::text, 'kind', kind) ORDER BY terminal, seq, kind), '[]') FROM listed) AS listed`

/**
 * The last seq each terminal's archived years reach (office migration 10, archives.ts), as JSON by terminal; an office
 * not migrated to it has none. Lines up to it were dropped by the owner after a verified export, not deleted: the
 * first line held links to the archive's last hash (held_hash).
 */
async function archivedThrough(client: ClientBase): Promise<string> {
  const known = (await client.query<{ known: boolean }>("SELECT to_regclass('office_archives') IS NOT NULL AS known")).rows[0].known
  if (!known) return '{}'
  return (await client.query<{ through: string }>('SELECT COALESCE(jsonb_object_agg(terminal, through), \'{}\')::text AS through FROM (SELECT terminal, max(last_seq) AS through FROM office_archives GROUP BY terminal) a')).rows[0].through
}

/** Checks every terminal's chain as `client` sees the office (one statement: one snapshot); needs only SELECT. */
export async function checkChains(client: ClientBase): Promise<ChainCheck> {
  type Listed = { terminal: string; seq: string; through: string; kind: TamperKind }
  const { rows } = await client.query<{ terminals: number; entries: string; textless: string; problem_count: number; listed: Listed[] }>(CHECK_SQL, [GENESIS_HASH, PROBLEMS_LISTED, await archivedThrough(client)])
  const [row] = rows
  return {
    checkedAt: new Date(),
    terminals: row.terminals,
    entries: BigInt(row.entries),
    textless: BigInt(row.textless),
    problems: row.listed.map((p) => ({ terminal: p.terminal, seq: BigInt(p.seq), through: BigInt(p.through), kind: p.kind })),
    problemCount: row.problem_count,
  }
}
