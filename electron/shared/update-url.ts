// The update server's address (Settings → Updates): the folder on a web server that holds a release's
// latest.yml (Windows) and latest-linux.yml (Linux) beside its installers, read by electron-updater's generic provider.

/**
 * Decision: https only, since an update is code the counter will run with the shop's books and keychain; plain http
 * only to 127.0.0.1, a release being tried on this very computer. No user name or password in the address (it would
 * sit in settings.json and the logs), and no query or fragment (the updater appends the file names to the path).
 */
export function isUpdateUrl(address: string): boolean {
  let url: URL
  try {
    url = new URL(address)
  } catch {
    return false
  }
  if (url.username || url.password || url.search || url.hash || !url.hostname) return false
  if (url.protocol === 'https:') return true
  return url.protocol === 'http:' && url.hostname === '127.0.0.1'
}
