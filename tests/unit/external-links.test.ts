// The desktop app's window.open handler (electron/external-links.ts) at the Electron boundary: shell.openExternal is a
// recording fake. A wa.me chat goes to the OS browser; anything else goes nowhere; no window.open ever makes a window.
import { beforeEach, describe, expect, it, vi } from 'vitest'

const opened = vi.hoisted(() => [] as string[])
vi.mock('electron', () => ({ shell: { openExternal: async (url: string) => void opened.push(url) } }))

const { isWhatsAppAddress, openOutside } = await import('../../electron/external-links')

beforeEach(() => {
  opened.length = 0
})

describe('window.open from the counter page', () => {
  it('hands a wa.me chat to the OS browser and makes no window of its own', () => {
    const url = 'https://wa.me/919876543210?text=%2AMy%20Shop%2A%0AAmount%3A%20%E2%82%B9199.00'
    expect(openOutside({ url })).toEqual({ action: 'deny' })
    expect(opened).toEqual([url])
  })

  it.each([
    'https://example.com/',
    'https://wa.me.example.com/919876543210',
    'https://wa.me@example.com/',
    'https://user@wa.me/919876543210',
    'https://wa.me:8443/919876543210',
    'http://wa.me/919876543210',
    'HTTPS://WA.ME/919876543210',
    'https://api.whatsapp.com/send?phone=919876543210',
    'javascript:alert(1)',
    'file:///etc/passwd',
    'about:blank',
    '',
  ])('refuses %j: nothing opened, no window', (url) => {
    expect(isWhatsAppAddress(url)).toBe(false)
    expect(openOutside({ url })).toEqual({ action: 'deny' })
    expect(opened).toEqual([])
  })
})
