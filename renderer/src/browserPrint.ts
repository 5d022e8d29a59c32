// Browser mode's printing: the receipt alone through the browser's print dialog (there is no silent printing).
const FRAME_STYLE = 'position:fixed;right:0;bottom:0;width:0;height:0;border:0'

/** Prints the html in a throwaway frame; resolves when the dialog has closed. */
export function printHtml(html: string): Promise<void> {
  return new Promise((resolve) => {
    const frame = document.createElement('iframe')
    // allow-modals lets print() run in the frame and allow-same-origin lets this page call it; scripts stay off.
    frame.setAttribute('sandbox', 'allow-modals allow-same-origin')
    frame.setAttribute('aria-hidden', 'true')
    frame.style.cssText = FRAME_STYLE
    frame.addEventListener('load', () => {
      const view = frame.contentWindow
      view?.focus()
      view?.print() // blocks until the dialog closes
      frame.remove()
      resolve()
    }, { once: true })
    frame.srcdoc = html
    document.body.appendChild(frame)
  })
}
