// Who may call a loopback page (browser mode, the office view): a per-launch token, this port's own Host, no foreign Origin.
// Plain Node: only servers import it, never the renderer.
import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, Server } from 'node:http'
import type { AddressInfo } from 'node:net'

/** 24 characters of base64 is 144 bits: beyond guessing through a loopback port. */
export const MIN_TOKEN_LENGTH = 24

/** Refuses a token given in `variable` too short to keep other local programs out (the message never shows the token). */
export function checkLaunchToken(token: string | undefined, variable: string): void {
  if (token !== undefined && token.length < MIN_TOKEN_LENGTH) {
    throw new Error(
      `${variable} is too short (${token.length} characters): use at least ${MIN_TOKEN_LENGTH}, or leave it unset for a new random token at each launch.`,
    )
  }
}

export function newLaunchToken(): string {
  return randomBytes(24).toString('base64url')
}

/** Compared in constant time, so the answer's timing says nothing of how much of a guess was right. */
export function sameSecret(given: string, expected: string): boolean {
  const [a, b] = [Buffer.from(given), Buffer.from(expected)]
  return a.length === b.length && timingSafeEqual(a, b)
}

/** The Host and Origin values a page on this loopback port is called with; anything else is DNS rebinding or another site. */
export function loopbackCallers(port: number): { hosts: string[]; origins: string[] } {
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`]
  return { hosts, origins: hosts.map((host) => `http://${host}`) }
}

/** Why the caller is refused before anything else is looked at, or null. */
export function foreignCaller(req: IncomingMessage, allowed: { hosts: string[]; origins: string[] }): 'host' | 'origin' | null {
  if (!allowed.hosts.includes(req.headers.host ?? '')) return 'host'
  const origin = req.headers.origin
  return origin !== undefined && !allowed.origins.includes(origin) ? 'origin' : null
}

/** Listens on 127.0.0.1 (`port`, or any free one for 0): the callers it then allows, its origin, and the address to open with the token. */
export async function listenOnLoopback(server: Server, port: number, token: string): Promise<{ allowed: { hosts: string[]; origins: string[] }; origin: string; url: string }> {
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', resolve)
  })
  const bound = (server.address() as AddressInfo).port
  const origin = `http://127.0.0.1:${bound}`
  return { allowed: loopbackCallers(bound), origin, url: `${origin}/?token=${encodeURIComponent(token)}` }
}
