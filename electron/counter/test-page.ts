// The test page for a printer reached through the OS's driver: the shop's header as receipts show it
// and a millimetre ruler across the whole roll, so staff see that the printer prints and where the
// paper's printable width ends. (An ESC/POS printer gets its own in printers/escpos.ts.)
import { receiptPageCss } from '../shared/paper'
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

export function testPageHtml(shop: Pick<ReceiptShop, 'shopName' | 'shopAddress' | 'receiptWidthMm'>, css: string): string {
  const width = shop.receiptWidthMm
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Printer test page</title>
<style>${receiptPageCss(width)}
${css}
.ruler { position: relative; height: 9mm; margin: 2mm -3mm; }
.ruler i { position: absolute; top: 0; border-left: 0.25mm solid #000; }
.ruler b { position: absolute; top: 4.5mm; transform: translateX(-50%); font-size: 9px; font-weight: normal; }</style></head>
<body class="w${width}">
<h1>${escapeHtml(shop.shopName)}</h1>
${shop.shopAddress ? `<div class="address">${escapeHtml(shop.shopAddress)}</div>` : ''}
<div class="title">Printer test page</div>
<div class="note">${width} mm roll. The ruler runs the whole width of the paper: where its marks stop, the printer cannot print.</div>
${ruler(width)}
<div class="footer">If this page came out whole, receipts will too.</div>
</body></html>`
}
