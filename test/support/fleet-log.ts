/**
 * A Windows Performance Monitor log of two computers (WEB1 and DB1: a volume C: on disk 0 each,
 * every 15 s for two hours, the cache switched on after the first hour), written for tests: after
 * the switch WEB1's disk sees a tenth of the volume's reads and DB1's a half, and the volumes'
 * response times drop. `cacheproof-probe import perfmon LOG --switch-at FLEET_SWITCH --out X`
 * makes a fleet capture (meta `fleet`), `--out-dir D` one capture per computer.
 */
export const FLEET_HOSTS = ['WEB1', 'DB1'] as const;
export const FLEET_T0 = Date.UTC(2024, 2, 14, 10, 0, 0);
export const FLEET_SWITCH = FLEET_T0 + 3600_000;

export function twoComputerPerfmonLog(): string {
  const counters = ['Disk Reads/sec', 'Disk Writes/sec', 'Disk Read Bytes/sec', 'Disk Write Bytes/sec', 'Avg. Disk sec/Read', 'Avg. Disk sec/Write', '% Idle Time'];
  const head = ['"(PDH-CSV 4.0) (Coordinated Universal Time)(0)"'];
  for (const h of FLEET_HOSTS) for (const o of ['LogicalDisk(C:)', 'PhysicalDisk(0 C:)']) for (const c of counters) head.push(`"\\\\${h}\\${o}\\${c}"`);
  const lines = [head.join(',')];
  const p2 = (n: number): string => String(n).padStart(2, '0');
  for (let i = 0; i <= 480; i++) {
    const t = new Date(FLEET_T0 + i * 15_000);
    const row = [`"${p2(t.getUTCMonth() + 1)}/${p2(t.getUTCDate())}/${t.getUTCFullYear()} ${p2(t.getUTCHours())}:${p2(t.getUTCMinutes())}:${p2(t.getUTCSeconds())}.000"`];
    const after = FLEET_T0 + i * 15_000 > FLEET_SWITCH;
    FLEET_HOSTS.forEach((_h, k) => {
      const reads = (k === 0 ? 400 : 120) + ((i * 37) % 50);
      const writes = (k === 0 ? 100 : 60) + ((i * 11) % 20);
      const keep = after ? (k === 0 ? 0.1 : 0.5) : 1;
      const lat = after ? (k === 0 ? 0.0006 : 0.004) : 0.009 + ((i % 7) / 1000);
      for (const [r, w, l] of [[reads, writes, lat], [reads * keep, writes, 0.009]] as const) {
        row.push(`"${r}"`, `"${w}"`, `"${r * 8192}"`, `"${w * 4096}"`, `"${l}"`, `"${l / 2}"`, `"${after ? 80 : 40}"`);
      }
    });
    lines.push(row.join(','));
  }
  return `${lines.join('\r\n')}\r\n`;
}
