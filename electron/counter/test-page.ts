// The test page for a printer reached through the OS's driver: the shop's header as receipts show it
// and a millimetre ruler across the whole roll, so staff see that the printer prints and where the
// paper's printable width ends, in the receipt language. (An ESC/POS printer gets its own in printers/escpos.ts;
// decision: its words stay in the printer's code page, since that page tests the printer's own text columns,
// which have no Devanagari; a Hindi page there would be a picture and test nothing of them.)
import { receiptPageCss } from '../shared/paper'
import { paperWords } from '../shared/words'
import { fontFacesFor } from './paper-fonts'
import { escapeHtml, type ReceiptShop } from './receipts'

/** A tick each millimetre, longer each 5 and 10, numbered each 10; drawn with borders, which print without backgrounds. */
function ruler(widthMm: number): string {
  const ticks = Array.from({ length: widthMm + 1 }, (_, mm) => {
    const height = mm % 10 === 0 ? 4 : mm % 5 === 0 ? 2.5 : 1.2
    const label = mm % 10 === 0 && mm > 0 && mm < widthMm ? `<b style="left:${mm}mm">${mm}</b>` : ''
    return `<i style="left:${mm}mm;height:${height}mm"></i>${label}`
  })
  return `<div class="ruler">${ticks.join('')}</div>`
}

/** `fontFace` is the Devanagari font's rule (paper-fonts.ts), inlined when the page holds Devanagari. */
export function testPageHtml(shop: Pick<ReceiptShop, 'shopName' | 'shopAddress' | 'receiptWidthMm' | 'receiptLanguage'>, css: string, fontFace = ''): string {
  const width = shop.receiptWidthMm
  const { lang, testPage: words } = paperWords(shop.receiptLanguage)
  const text = `${shop.shopName} ${shop.shopAddress} ${words.title} ${words.roll(width)} ${words.footer}`
  return `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><title>${escapeHtml(words.title)}</title>
<style>${receiptPageCss(width)}
${fontFacesFor(text, fontFace)}
${css}
.ruler { position: relative; height: 9mm; margin: 2mm -3mm; }
.ruler i { position: absolute; top: 0; border-left: 0.25mm solid #000; }
.ruler b { position: absolute; top: 4.5mm; transform: translateX(-50%); font-size: 9px; font-weight: normal; }</style></head>
<body class="w${width}">
<h1>${escapeHtml(shop.shopName)}</h1>
${shop.shopAddress ? `<div class="address">${escapeHtml(shop.shopAddress)}</div>` : ''}
<div class="title">${escapeHtml(words.title)}</div>
<div class="note">${escapeHtml(words.roll(width))}</div>
${ruler(width)}
<div class="footer">${escapeHtml(words.footer)}</div>
</body></html>`
}
