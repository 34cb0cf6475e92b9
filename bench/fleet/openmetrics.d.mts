// Types of bench/fleet/openmetrics.mjs for the TypeScript that reuses it (e2e/specs/fleet-pushdown.spec.ts, e2e/victoria.ts).
export const DISKS: readonly string[];
export function devicesOf(h: number, stacked: boolean): readonly string[];
export function hostName(h: number): string;
export function readSeconds(h: number, k: number, stacked: boolean): number;
export function ratesAt(h: number, d: number, k: number, stepS: number): { reads: number; writes: number };
export function backfillFleet(o: { dir: string; hosts: number; points: number; stepS: number; t0: number; chunk?: number; stacked?: boolean; log?: (line: string) => void }): Promise<void>;
export function importFleet(o: { url: string; dir: string; hosts: number; points: number; stepS: number; t0: number; chunk?: number; stacked?: boolean }): Promise<void>;
