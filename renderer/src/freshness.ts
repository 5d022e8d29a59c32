// Which of two copies of the same sale to keep: answers and events can arrive out of order, and an
// older copy (or the SENDING copy of the same moment) must never replace a settled one on screen.

interface Versioned {
  updatedAt: string
  state: string
}

export function isStale(candidate: Versioned, shown: Versioned): boolean {
  const candidateAt = Date.parse(candidate.updatedAt)
  const shownAt = Date.parse(shown.updatedAt)
  return candidateAt < shownAt || (candidateAt === shownAt && candidate.state === 'SENDING' && shown.state !== 'SENDING')
}
