// The simulator's books on disk (training keeps them in training-ledger/simulator.json), read back at the next start:
// a restarted training still finds its orders, agents and wallet where it left them, as with a real provider.
import { existsSync, readFileSync, renameSync } from 'node:fs'
import { basename, dirname } from 'node:path'
import type { z } from 'zod'
import { writeFileAtomically } from '../ledger/durable-files'

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

export class BooksFile<Books> {
  /** The text the file holds, as last read or written: books unchanged since are not written again. */
  private held: string | null = null

  constructor(
    private readonly path: string,
    private readonly schema: z.ZodType<Books>,
  ) {}

  /**
   * The books saved; null when there are none. Decision: a file that does not read as these books (cut short by a
   * failing disk, edited by hand, of another version) is set aside as `<name>.unreadable`, replacing one set aside
   * before, and the provider starts afresh: training must never keep Counter from starting, and what was there is
   * kept for a person to look at.
   */
  read(): Books | null {
    if (!existsSync(this.path)) return null
    const text = readFileSync(this.path, 'utf8')
    const parsed = this.schema.safeParse(parseJson(text))
    if (!parsed.success) {
      renameSync(this.path, `${this.path}.unreadable`)
      return null
    }
    this.held = text
    return parsed.data
  }

  /** Replaces the file with `books` so that a crash leaves the old books or the new ones, whole. */
  save(books: Books): void {
    const text = JSON.stringify(books)
    if (text === this.held) return
    writeFileAtomically(dirname(this.path), basename(this.path), Buffer.from(text, 'utf8'))
    this.held = text
  }
}
