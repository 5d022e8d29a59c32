// Browser mode's printing: the receipt alone through the browser's print dialog (there is no silent
// printing), on a page as tall as the receipt by the desktop app's rule (electron/shared/paper.ts).
import { contentHeightPx, declaredReceiptWidthMm, pageForContent, withPageSize } from '../../electron/shared/paper'

// Off-screen but laid out at a real size: a frame of 0×0 lays nothing out to measure. Its width is set
// to the receipt's own once the receipt says it; 80 mm until then is the widest roll.
const FRAME_STYLE = 'position:fixed;left:-10000px;top:0;width:80mm;height:20px;border:0'

/** Loads html into the frame (attached or about to be) and resolves with its window once loaded. */
function load(frame: HTMLIFrameElement, html: string): Promise<Window> {
  return new Promise((resolve) => {
    frame.addEventListener('load', () => resolve(frame.contentWindow!), { once: true })
    frame.srcdoc = html
  })
}

/**
 * Prints the html in a throwaway frame; resolves when the dialog has closed. A receipt (which declares its
 * roll width) is measured in the frame and printed again from html that carries its page size, since a
 * browser takes the size of a page only from CSS; anything else (the A4 report) prints as it is.
 */
export async function printHtml(html: string): Promise<void> {
  const frame = document.createElement('iframe')
  // allow-modals lets print() run in the frame and allow-same-origin lets this page measure it and call
  // print(); scripts stay off, so the frame's html (srcdoc) never runs any.
  frame.setAttribute('sandbox', 'allow-modals allow-same-origin')
  frame.setAttribute('aria-hidden', 'true')
  frame.tabIndex = -1
  frame.style.cssText = FRAME_STYLE
  try {
    const loaded = load(frame, html)
    document.body.appendChild(frame)
    let view = await loaded
    const widthMm = declaredReceiptWidthMm(view.getComputedStyle(view.document.documentElement))
    if (widthMm !== null) {
      frame.style.width = `${widthMm}mm`
      const page = pageForContent(widthMm, await contentHeightPx(view.document))
      view = await load(frame, withPageSize(html, page))
    }
    view.focus()
    view.print() // blocks until the dialog closes
  } finally {
    frame.remove()
  }
}
