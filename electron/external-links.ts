// The desktop app's one way out to the OS browser: a window.open from the counter's page is never a window of ours;
// a WhatsApp chat address (a shared receipt, counter/receipt-share.ts) goes to the OS browser, anything else nowhere.
//
// Decision: the renderer opens the address the core returned (receipt.share) with window.open, in the desktop app as
// in browser mode, and this handler is where Electron's window.open lands. That adds no preload function, no IPC
// channel and no port into the core (which must not import electron): the smallest surface, and the page can still
// reach only wa.me, whatever it asks for.
import { shell } from 'electron'
import { WHATSAPP_ADDRESS } from './contract'

/** True for an https address on wa.me itself (not wa.me.example.com, not a user@ trick, not another scheme or port). */
export function isWhatsAppAddress(url: string): boolean {
  if (!url.startsWith(WHATSAPP_ADDRESS)) return false
  try {
    const parsed = new URL(url)
    return parsed.origin === 'https://wa.me' && parsed.username === '' && parsed.password === ''
  } catch {
    return false
  }
}

/** For setWindowOpenHandler: opens an allowed address in the OS browser; every window.open is refused as a window. */
export function openOutside({ url }: { url: string }): { action: 'deny' } {
  if (isWhatsAppAddress(url)) void shell.openExternal(url)
  return { action: 'deny' }
}
