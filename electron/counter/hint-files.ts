// The small JSON notes the counter keeps in its data folder as hints (the office's last word, the last copy off the PC): read whole, or not at all.
import { readFileSync } from 'node:fs'

/**
 * The note at `path` when it parses and `valid` accepts it; null when it is missing, unreadable or not as expected.
 * A hint is never where money is decided: a lost one only costs what the next write of it mends.
 */
export function readHintFile<T>(path: string, valid: (read: Record<string, unknown>) => boolean): T | null {
  try {
    const read: unknown = JSON.parse(readFileSync(path, 'utf8'))
    return typeof read === 'object' && read !== null && valid(read as Record<string, unknown>) ? (read as T) : null
  } catch {
    return null
  }
}
