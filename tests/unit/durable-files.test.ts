// Files written and copied in flushed steps land whole: sizes across the step boundary, byte for byte, and a failed write leaves no temporary file.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { copyFileDurably, writeFileAtomically } from '../../electron/ledger/durable-files'
import { installFsShim } from '../faults/fs-shim'

const MIB = 1024 * 1024
const folders: string[] = []
const folder = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'durable-files-'))
  folders.push(dir)
  return dir
}
afterEach(() => {
  for (const dir of folders.splice(0)) fs.rmSync(dir, { recursive: true, force: true })
})

/** Bytes that differ at every offset, so a step written twice or skipped shows. */
const patterned = (length: number) => Uint8Array.from({ length }, (_, i) => (i * 31 + (i >> 16)) & 0xff)

describe('writeFileAtomically and copyFileDurably in flushed steps', () => {
  it.each([0, 1, MIB - 1, MIB, MIB + 1, 3 * MIB + 12_345])('writes and copies %i bytes exactly', (length) => {
    const dir = folder()
    const bytes = patterned(length)
    writeFileAtomically(dir, 'file.bin', bytes, { keepPreviousAs: 'file.bin.prev' })
    expect(Buffer.compare(fs.readFileSync(path.join(dir, 'file.bin')), Buffer.from(bytes))).toBe(0)
    copyFileDurably(path.join(dir, 'file.bin'), path.join(dir, 'copy.bin'))
    expect(Buffer.compare(fs.readFileSync(path.join(dir, 'copy.bin')), Buffer.from(bytes))).toBe(0)
    expect(fs.readdirSync(dir).sort()).toEqual(['copy.bin', 'file.bin'])
  })

  it('keeps the previous file whole when it replaces it, and a copy over a longer file leaves none of the old tail', () => {
    const dir = folder()
    writeFileAtomically(dir, 'file.bin', patterned(2 * MIB + 7), { keepPreviousAs: 'file.bin.prev' })
    writeFileAtomically(dir, 'file.bin', patterned(5), { keepPreviousAs: 'file.bin.prev' })
    expect(fs.statSync(path.join(dir, 'file.bin.prev')).size).toBe(2 * MIB + 7)
    fs.writeFileSync(path.join(dir, 'copy.bin'), patterned(3 * MIB))
    copyFileDurably(path.join(dir, 'file.bin'), path.join(dir, 'copy.bin'))
    expect([...fs.readFileSync(path.join(dir, 'copy.bin'))]).toEqual([...patterned(5)])
  })

  it('replaces a file by overwriting the dropped previous copy in place: no file freed, none of its old tail kept', () => {
    const dir = folder()
    const inode = (name: string) => fs.statSync(path.join(dir, name)).ino
    const read = (name: string) => [...fs.readFileSync(path.join(dir, name))]
    writeFileAtomically(dir, 'file.bin', patterned(3 * MIB + 1), { keepPreviousAs: 'file.bin.prev' })
    writeFileAtomically(dir, 'file.bin', patterned(2 * MIB), { keepPreviousAs: 'file.bin.prev' })
    const [newest, previous] = [inode('file.bin'), inode('file.bin.prev')]
    // The third copy lands in the first one's blocks (the one dropped), shorter than they were.
    const third = patterned(MIB + 3).map((byte) => byte ^ 0x5a)
    writeFileAtomically(dir, 'file.bin', third, { keepPreviousAs: 'file.bin.prev' })
    expect([inode('file.bin'), inode('file.bin.prev')]).toEqual([previous, newest])
    expect(read('file.bin')).toEqual([...third])
    expect(read('file.bin.prev')).toEqual([...patterned(2 * MIB)])
    expect(fs.readdirSync(dir).sort()).toEqual(['file.bin', 'file.bin.prev'])
  })

  it('a replacement the disk refuses part-way leaves the newest copy whole and no temporary file', () => {
    const dir = folder()
    writeFileAtomically(dir, 'file.bin', patterned(MIB), { keepPreviousAs: 'file.bin.prev' })
    writeFileAtomically(dir, 'file.bin', patterned(2 * MIB), { keepPreviousAs: 'file.bin.prev' })
    const shim = installFsShim(dir)
    try {
      // The second MiB's write: after the dropped copy became the temporary file and took the first.
      shim.arm({ cls: 'write', occurrence: 2 }, { kind: 'errno', code: 'ENOSPC' })
      expect(() => writeFileAtomically(dir, 'file.bin', patterned(3 * MIB), { keepPreviousAs: 'file.bin.prev' })).toThrow(/ENOSPC/)
      expect(shim.fired()).toBe(true)
    } finally {
      shim.uninstall()
    }
    expect([...fs.readFileSync(path.join(dir, 'file.bin'))]).toEqual([...patterned(2 * MIB)])
    // The price written beside writeFileAtomically: the previous copy went with the failed write.
    expect(fs.readdirSync(dir)).toEqual(['file.bin'])
  })

  it('a write into a folder that is gone throws and leaves nothing behind', () => {
    const dir = folder()
    const gone = path.join(dir, 'gone')
    expect(() => writeFileAtomically(gone, 'file.bin', patterned(MIB + 1))).toThrow(/ENOENT/)
    expect(fs.readdirSync(dir)).toEqual([])
  })
})
