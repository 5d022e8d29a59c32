// The Verhoeff check digit that ends every Aadhaar number: catches any single wrong digit and any
// swap of neighbours before the number reaches the provider.
// A leaf module on the shared floor (the contract's Aadhaar field checks it): it imports nothing of ours.

const multiply = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 2, 3, 4, 0, 6, 7, 8, 9, 5],
  [2, 3, 4, 0, 1, 7, 8, 9, 5, 6],
  [3, 4, 0, 1, 2, 8, 9, 5, 6, 7],
  [4, 0, 1, 2, 3, 9, 5, 6, 7, 8],
  [5, 9, 8, 7, 6, 0, 4, 3, 2, 1],
  [6, 5, 9, 8, 7, 1, 0, 4, 3, 2],
  [7, 6, 5, 9, 8, 2, 1, 0, 4, 3],
  [8, 7, 6, 5, 9, 3, 2, 1, 0, 4],
  [9, 8, 7, 6, 5, 4, 3, 2, 1, 0],
]
const permute = [
  [0, 1, 2, 3, 4, 5, 6, 7, 8, 9],
  [1, 5, 7, 6, 2, 8, 3, 0, 9, 4],
  [5, 8, 0, 3, 7, 9, 6, 1, 4, 2],
  [8, 9, 1, 6, 0, 4, 3, 5, 2, 7],
  [9, 4, 5, 3, 1, 2, 6, 8, 7, 0],
  [4, 2, 8, 6, 5, 7, 3, 9, 0, 1],
  [2, 7, 9, 3, 8, 0, 6, 4, 1, 5],
  [7, 0, 4, 6, 9, 1, 3, 2, 5, 8],
]
const inverse = [0, 4, 3, 2, 1, 5, 6, 7, 8, 9]

function checksum(digits: string, offset: number): number {
  let c = 0
  const reversed = [...digits].reverse()
  reversed.forEach((d, i) => (c = multiply[c][permute[(i + offset) % 8][Number(d)]]))
  return c
}

/** True when the last digit of a digit string is its Verhoeff check digit. */
export function verhoeffValid(digits: string): boolean {
  return /^\d+$/.test(digits) && checksum(digits, 0) === 0
}

/** The check digit to append to a digit string. */
export function verhoeffDigit(digits: string): string {
  return String(inverse[checksum(digits, 1)])
}
