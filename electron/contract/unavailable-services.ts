// The partner services the spec only names (payout, e-collect, Aadhaar cash withdrawal), as the page lists them; their
// names and why each is missing are the screens' words (unavailable.service in shared/words).
//
// It sits in the contract because the page shows it and may import nothing else of the core. Each would get a
// client in partners/, beside recharge-api.ts and pan-api.ts, once the provider publishes its paths and payloads;
// until then the counter lists it as "not available with this provider".

export const unavailableServices = [{ id: 'payout' }, { id: 'ecollect' }, { id: 'cash-withdrawal' }] as const
