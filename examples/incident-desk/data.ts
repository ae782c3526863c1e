/** @module incident-desk/data: the fixed incidents, on-call roster and services the example server serves. */

export type Severity = 'SEV1' | 'SEV2' | 'SEV3';

export interface Incident {
  readonly id: string;
  readonly title: string;
  readonly severity: Severity;
  readonly status: 'open' | 'mitigated' | 'resolved';
  readonly service: string;
  readonly openedAt: string;
  readonly timeline: readonly string[];
}

export interface ServiceStatus {
  readonly name: string;
  readonly state: 'healthy' | 'degraded' | 'down';
  readonly version: string;
  readonly errorRate: number;
  readonly p99Ms: number;
}

export interface OnCallShift {
  readonly team: string;
  readonly primary: string;
  readonly secondary: string;
  readonly until: string;
}

export const INCIDENTS: readonly Incident[] = [
  {
    id: 'INC-1042',
    title: 'Card payments failing with 502 at checkout',
    severity: 'SEV1',
    status: 'open',
    service: 'payments-api',
    openedAt: '2026-11-29T08:12:00Z',
    timeline: [
      '08:12 alert: payments-api 5xx rate above 20%',
      '08:15 on-call paged (Ada Okafor)',
      '08:21 connection pool to ledger-db saturated',
    ],
  },
  {
    id: 'INC-1043',
    title: 'Search results stale by up to 40 minutes',
    severity: 'SEV3',
    status: 'mitigated',
    service: 'search-indexer',
    openedAt: '2026-11-29T09:40:00Z',
    timeline: ['09:40 ticket from support: stale product prices in search', '10:05 indexer backlog drained by hand'],
  },
  {
    id: 'INC-1044',
    title: 'Login latency spikes in eu-west',
    severity: 'SEV2',
    status: 'open',
    service: 'auth-gateway',
    openedAt: '2026-11-29T11:02:00Z',
    timeline: ['11:02 p99 login latency above 3 s in eu-west', '11:09 suspect token cache eviction storm'],
  },
];

export const SERVICES: readonly ServiceStatus[] = [
  { name: 'payments-api', state: 'degraded', version: '4.18.2', errorRate: 0.23, p99Ms: 2900 },
  { name: 'search-indexer', state: 'healthy', version: '2.3.0', errorRate: 0.001, p99Ms: 140 },
  { name: 'auth-gateway', state: 'degraded', version: '7.1.5', errorRate: 0.02, p99Ms: 3400 },
  { name: 'ledger-db', state: 'healthy', version: '15.4', errorRate: 0, p99Ms: 35 },
];

export const ROSTER: readonly OnCallShift[] = [
  { team: 'payments', primary: 'Ada Okafor', secondary: 'Lin Chen', until: '2026-11-30T08:00:00Z' },
  { team: 'search', primary: 'Mateo Ruiz', secondary: 'Priya Nair', until: '2026-11-30T08:00:00Z' },
  { team: 'identity', primary: 'Sofia Berg', secondary: 'Tomás Silva', until: '2026-11-30T08:00:00Z' },
];

export function findIncident(id: string): Incident | undefined {
  return INCIDENTS.find((incident) => incident.id === id);
}

export function findService(name: string): ServiceStatus | undefined {
  return SERVICES.find((service) => service.name === name);
}

/** Values starting with `prefix`, case-insensitively: the completion rule for template variables and prompt args. */
export function completeFrom(values: readonly string[], prefix: string): string[] {
  const wanted = prefix.toLowerCase();
  return values.filter((value) => value.toLowerCase().startsWith(wanted));
}
