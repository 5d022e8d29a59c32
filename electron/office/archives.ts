// Office migration 10: closed years archived to a file and dropped from `entries`, the office keeping what shipping, the tamper check and the roll-ups still need of them.
import { contribute, DEFINER, foldBooks, foldSales, ROLLUP_TABLES, rollupInsertFunction } from './rollups'

/**
 * Decision: an archive plan, not monthly partitions of `entries`. A partitioned table's unique keys must include the
 * partition key, so (terminal, seq) could no longer be unique across months: the dedupe of a resent batch (ON CONFLICT)
 * and fork detection rest on it. Converting millions of rows would also stop an office for hours. Instead the owner
 * exports a closed year to a file (years.ts) and drops it; the page never read those rows anyway (roll-ups, rollups.ts).
 *
 * What the office keeps of an archived range, per terminal (`office_archives`): its seq range, the hash before it and
 * its last hash, and every line's hash, 32 bytes each, packed in one value (about 51 MB for a busy counter's year of
 * 1.6 million lines, against 1.1 GB of entries). Decision: every hash, not only the last: a counter resending an
 * archived line, or a journal restored from an old backup and sold on, is told apart exactly as before the drop
 * (`held_hash` answers from the archive), so a resent line is acknowledged as held and a differing one refused as a
 * fork. Taking every line in an archived range as held would silently swallow a restored journal's new sales there;
 * and the fork search (forks.ts findParting) asks for a hash at any seq.
 *
 * The roll-ups keep the archived days: each archive's own fold of its lines (`office_archived_*`, made before its rows
 * go) is where any later rebuild of that terminal starts, so an owner's change to a kept line still rebuilds the page's
 * figures without losing the archived ones; and the drop's own DELETE rebuilds nothing (rows inside an archived range:
 * only the owner can write `office_archives` and delete entries, the counters' role can do neither). A sale all of
 * whose lines were archived leaves `office_sales` for `office_archived_sales` (the day sums keep what it added), so
 * its row is kept once; a later line about it (settled by phone in the new year) brings the row back before it is folded.
 */
const ARCHIVED_SALES = 'office_archived_sales'
const ARCHIVED_DUES = 'office_archived_dues'
const ARCHIVED_CLOSES = 'office_archived_day_closes'

/** The bytes one line's hash takes in `office_archives.hashes` (sha256). */
export const HASH_BYTES = 32

/**
 * Takes out of `office_sales` the sales of the terminals `terminals` picks every line of which lies up to `through`
 * (archived): their rows are in the archived fold as they are, and the day sums already hold what they added.
 */
const archivedOnlySalesGone = (terminals: string, through: string) => `
      DELETE FROM office_sales s WHERE s.terminal ${terminals}
        AND GREATEST(s.intent_seq, s.state_seq, s.answer_seq, s.charged_seq) <= ${through};`

const terminalEntries = (which: string) => `(SELECT * FROM entries WHERE terminal = ANY (${which})) e`

export const ARCHIVES_MIGRATION = {
  // Decision: version 10, after the roll-ups (9), whose functions it replaces.
  version: 10,
  name: 'closed years archived: their ranges and hashes, and roll-ups that keep them',
  sql: `
    CREATE TABLE office_archives (
      terminal text NOT NULL REFERENCES terminals (terminal),
      year int NOT NULL,
      first_seq bigint NOT NULL CHECK (first_seq > 0),
      last_seq bigint NOT NULL CHECK (last_seq >= first_seq),
      first_prev text NOT NULL,
      last_hash text NOT NULL,
      hashes bytea NOT NULL CHECK (length(hashes) = (last_seq - first_seq + 1) * ${HASH_BYTES}),
      file_sha256 text NOT NULL,
      archived_at timestamptz NOT NULL DEFAULT now(),
      archived_by text NOT NULL DEFAULT current_user,
      PRIMARY KEY (terminal, first_seq),
      UNIQUE (terminal, year)
    );
    -- Stored uncompressed (hashes do not compress): substring then reads only the pages holding the wanted hash.
    ALTER TABLE office_archives ALTER COLUMN hashes SET STORAGE EXTERNAL;

    -- Each archive's lines folded as the roll-ups fold them, summed over every archived year of a terminal.
    -- Only their keys indexed: they are read by terminal, or by a touched sale's key.
    CREATE TABLE ${ARCHIVED_SALES} (LIKE office_sales INCLUDING DEFAULTS INCLUDING CONSTRAINTS, PRIMARY KEY (terminal, kind, sale_id));
    CREATE TABLE ${ARCHIVED_DUES} (LIKE office_dues INCLUDING DEFAULTS INCLUDING CONSTRAINTS, PRIMARY KEY (terminal, number));
    CREATE TABLE ${ARCHIVED_CLOSES} (LIKE office_day_closes INCLUDING DEFAULTS INCLUDING CONSTRAINTS, PRIMARY KEY (terminal, seq));

    -- The hash the office holds at (terminal, seq): a row of entries, else an archive's, the terminal's own or a parent's.
    CREATE OR REPLACE FUNCTION held_hash(of_terminal text, at_seq bigint) RETURNS text LANGUAGE sql STABLE AS $fn$
      WITH RECURSIVE holder (terminal) AS (
        SELECT of_terminal
        UNION ALL
        SELECT t.parent_terminal FROM holder h JOIN terminals t ON t.terminal = h.terminal
        WHERE t.parent_terminal IS NOT NULL AND at_seq <= t.parent_through
      )
      SELECT hash FROM (
        SELECT e.hash FROM holder h JOIN entries e ON e.terminal = h.terminal AND e.seq = at_seq
        UNION ALL
        SELECT encode(substring(a.hashes FROM ((at_seq - a.first_seq) * ${HASH_BYTES} + 1)::int FOR ${HASH_BYTES}), 'hex')
        FROM holder h JOIN office_archives a ON a.terminal = h.terminal AND at_seq BETWEEN a.first_seq AND a.last_seq
      ) found LIMIT 1
    $fn$;

    -- Folds a terminal's entries up to \`through\` into the archived roll-ups: run by the drop, before those rows go.
    CREATE FUNCTION office_archive_fold(which text, through bigint) RETURNS void ${DEFINER} AS $fn$
    BEGIN
      ${foldSales(`(SELECT * FROM entries WHERE terminal = which AND seq <= through) e`, ARCHIVED_SALES)}
      ${foldBooks(`(SELECT * FROM entries WHERE terminal = which AND seq <= through) e`, ARCHIVED_DUES, ARCHIVED_CLOSES)}
      ${archivedOnlySalesGone('= which', 'through')}
    END $fn$;
    REVOKE EXECUTE ON FUNCTION office_archive_fold(text, bigint) FROM PUBLIC;

    -- As migration 9's, starting from what the terminals' archives folded: the archived years stay on the page.
    CREATE OR REPLACE FUNCTION office_rollup_rebuild(which text[]) RETURNS void ${DEFINER} AS $fn$
    BEGIN
      ${ROLLUP_TABLES.map((table) => `DELETE FROM ${table} WHERE terminal = ANY (which);`).join('\n      ')}
      INSERT INTO office_sales SELECT * FROM ${ARCHIVED_SALES} WHERE terminal = ANY (which);
      INSERT INTO office_dues SELECT * FROM ${ARCHIVED_DUES} WHERE terminal = ANY (which);
      INSERT INTO office_day_closes SELECT * FROM ${ARCHIVED_CLOSES} WHERE terminal = ANY (which);
      ${foldSales(terminalEntries('which'))}
      ${contribute(1, 's.terminal = ANY (which)')}
      ${foldBooks(terminalEntries('which'))}
      ${archivedOnlySalesGone('= ANY (which)', '(SELECT max(a.last_seq) FROM office_archives a WHERE a.terminal = s.terminal)')}
    END $fn$;

    -- As migration 9's, an archived sale's row brought back first when a batch touches it.
    ${rollupInsertFunction('CREATE OR REPLACE', `
      INSERT INTO office_sales SELECT a.* FROM ${ARCHIVED_SALES} a
      WHERE (a.terminal, a.kind, a.sale_id) IN (SELECT * FROM unnest(touched_terminals, touched_kinds, touched_ids))
      ON CONFLICT (terminal, kind, sale_id) DO NOTHING;`)}

    -- Rows deleted inside an archived range are a drop (years.ts): the archive's fold already holds them, so the roll-ups
    -- stand as they are. A rebuild would come to the same figures, but would refold the terminal's whole history to get there.
    CREATE OR REPLACE FUNCTION office_rollup_changed() RETURNS trigger ${DEFINER} AS $fn$
    DECLARE changed text[];
    BEGIN
      changed := ARRAY (SELECT DISTINCT o.terminal FROM old_entries o
        WHERE NOT EXISTS (SELECT FROM office_archives a WHERE a.terminal = o.terminal AND o.seq BETWEEN a.first_seq AND a.last_seq));
      IF cardinality(changed) > 0 THEN PERFORM office_rollup_rebuild(changed); END IF;
      RETURN NULL;
    END $fn$;
  `,
}
