// Where the contract travels: the Electron IPC channel names and browser mode's HTTP paths.

/** The one Electron IPC channel for calls and the one for events (the preload exposes nothing else). */
export const IPC_CALL = 'counter:call'
export const IPC_EVENT = 'counter:event'

/** Browser mode: POST {WEB_API_PREFIX}<channel>, JSON body = input, header Authorization: Bearer <token>. */
export const WEB_API_PREFIX = '/api/'
export const WEB_EVENTS_PATH = '/events'
