// Browser-side saving: a file the core wrote out as text (a CSV) handed to the browser as a download.
const KEEP_URL_MS = 60_000

export function downloadText(content: string, filename: string, type = 'text/csv;charset=utf-8'): void {
  const url = URL.createObjectURL(new Blob([content], { type }))
  const link = document.createElement('a')
  link.href = url
  link.download = filename
  link.hidden = true
  document.body.appendChild(link)
  link.click()
  link.remove()
  // The browser reads the blob after this returns; let it go only once the download has surely begun.
  setTimeout(() => URL.revokeObjectURL(url), KEEP_URL_MS)
}
