// The partner services the spec only names (payout, e-collect, Aadhaar cash withdrawal), as the page lists them.
//
// It sits in the contract because the page shows it and may import nothing else of the core. Each would get a
// client in partners/, beside recharge-api.ts and pan-api.ts, once the provider publishes its paths and payloads;
// until then the counter lists it as "not available with this provider".

export const unavailableServices = [
  {
    id: 'payout',
    name: 'Payout',
    why: 'The provider names a payout transaction and its status check, but publishes no paths or fields for them.',
  },
  {
    id: 'ecollect',
    name: 'E-collect',
    why: 'Virtual accounts, UPI/IMPS/NEFT/RTGS collection and its webhook are named, but no paths, payloads or webhook signature are given.',
  },
  {
    id: 'cash-withdrawal',
    name: 'Aadhaar cash withdrawal',
    why: "It runs through the provider's own SDK, which is not part of the interface the provider has shown.",
  },
] as const

export type UnavailableService = (typeof unavailableServices)[number]
