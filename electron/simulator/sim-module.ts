// What one partner's half of the simulator is to the HTTP side: the requests it is handed, the paths it serves and
// the answers it gives. Its own file so server.ts and the partner modules (recharge-sim, pan-sim) import it, never each other.
import type { FaultSwitch } from './faults'

export interface SimRequest {
  operation: string
  method: string
  path: string
  fields: Record<string, string>
  /** Which TCP connection brought it (1, 2, ... in order of arrival): shows keep-alive reuse. */
  connection: number
}

export interface SimRoute {
  operation: string
  methods: readonly string[]
}

/** One partner's half of the simulator: the paths it serves and its business answers (a JSON object). */
export interface SimModule {
  routes: Record<string, SimRoute>
  /** 'fault' is the fault hitting this request; a module acts on those that change the business answer. */
  answer(req: SimRequest, fault: FaultSwitch | null): Record<string, unknown>
}
