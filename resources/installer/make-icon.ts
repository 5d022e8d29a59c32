// Draws Counter's application icon (icon.png beside this file, 512 x 512): a white "C" on a green rounded square.
// electron-builder makes the Windows .ico and the Linux icon sizes from it. Run again after changing it:
//   npx tsx resources/installer/make-icon.ts
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PNG } from 'pngjs'

const SIZE = 512
/** Samples per pixel along each axis: 4 x 4 smooths the edges without a drawing library. */
const GRID = 4
const GREEN = [0x1f, 0x6f, 0x5c] as const
const WHITE = [0xff, 0xff, 0xff] as const

const CORNER = 96
const RING_OUTER = 178
const RING_INNER = 112
/** Half the opening of the "C", in radians, facing right. */
const OPENING = Math.PI / 4.5

/** Whether (x, y) lies inside the rounded square. */
function inSquare(x: number, y: number): boolean {
  const dx = Math.max(CORNER - x, 0, x - (SIZE - CORNER))
  const dy = Math.max(CORNER - y, 0, y - (SIZE - CORNER))
  return dx * dx + dy * dy <= CORNER * CORNER
}

/** Whether (x, y) lies on the "C": a ring less its opening on the right. */
function inLetter(x: number, y: number): boolean {
  const dx = x - SIZE / 2
  const dy = y - SIZE / 2
  const r = Math.hypot(dx, dy)
  return r >= RING_INNER && r <= RING_OUTER && Math.abs(Math.atan2(dy, dx)) >= OPENING
}

const png = new PNG({ width: SIZE, height: SIZE })
for (let y = 0; y < SIZE; y++) {
  for (let x = 0; x < SIZE; x++) {
    let square = 0
    let letter = 0
    for (let sy = 0; sy < GRID; sy++) {
      for (let sx = 0; sx < GRID; sx++) {
        const px = x + (sx + 0.5) / GRID
        const py = y + (sy + 0.5) / GRID
        if (inSquare(px, py)) {
          square++
          if (inLetter(px, py)) letter++
        }
      }
    }
    const at = (y * SIZE + x) * 4
    const white = square === 0 ? 0 : letter / square
    for (let c = 0; c < 3; c++) png.data[at + c] = Math.round(GREEN[c] * (1 - white) + WHITE[c] * white)
    png.data[at + 3] = Math.round((255 * square) / (GRID * GRID))
  }
}
writeFileSync(join(__dirname, 'icon.png'), PNG.sync.write(png))
