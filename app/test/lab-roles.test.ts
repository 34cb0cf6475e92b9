/**
 * The wizard's "Accept the detected roles" on the real lab (issue 26): the probe's device list,
 * read by the host as the Devices step gets it, proposes the lab's front loop device and its
 * backing loop device, never the disk holding the backing loop's image (it used to propose the
 * system disk too, so every backing I/O was counted twice), and the stack shows that disk as
 * "holds the image of loopN: not counted". Needs root, losetup, mkfs.ext4 and the release probe;
 * in CI (CI=true) a missing one fails instead of skipping.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { probeDevices } from '../src/host/runs/probe.ts';
import { deviceEntry } from '../src/host/runs/supervisor.ts';
import { guessBacking, lowersOf, notCounted } from '../src/renderer/wizard/stacking.ts';
import { translate } from '../src/shared/i18n/types.ts';
import { wizard } from '../src/shared/i18n/wizard.ts';
import { skipped } from '../../test/support/testenv.ts';

const root = resolve(__dirname, '..', '..');
const probe = join(root, 'native', 'target', 'release', 'cacheproof-probe');
const onPath = (tool: string): boolean => spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status === 0;
function skipReason(): string | null {
  if (process.platform !== 'linux') return 'the lab needs Linux loop devices';
  if (process.getuid?.() !== 0) return 'the lab needs root (loop devices, mount)';
  for (const tool of ['losetup', 'mkfs.ext4']) if (!onPath(tool)) return `${tool} is not installed`;
  if (!existsSync(probe)) return `${probe} is missing: build it with 'cd native && cargo build --release'`;
  return null;
}
const reason = skipReason();

const dir = mkdtempSync(join(tmpdir(), 'cacheproof-lab-roles-'));
const labDir = join(dir, 'lab');
afterAll(() => {
  spawnSync(probe, ['lab', 'down', '--dir', labDir]);
  rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(skipped('lab-roles', reason))('the detected roles on the lab', () => {
  it('propose the lab’s front and backing loop devices, and show the disk under the image as not counted', async () => {
    execFileSync(probe, ['lab', 'up', '--dir', labDir, '--size-mb', '16'], { stdio: 'pipe' });
    const lab = JSON.parse(execFileSync(probe, ['lab', 'status', '--dir', labDir, '--json'], { encoding: 'utf8' })) as { frontDevice: string; backingDevice: string };
    const front = lab.frontDevice.replace('/dev/', '');
    const backing = lab.backingDevice.replace('/dev/', '');
    const devices = (await probeDevices(probe)).map(deviceEntry);
    const byName = new Map(devices.map((d) => [d.name, d] as const));
    const disk = byName.get(backing)?.backingFileDevice ?? null;
    expect(disk, 'the device holding backing.img').not.toBeNull();

    // What "Accept the detected roles" takes for this lab's front.
    expect(byName.get(front)?.role).toBe('front');
    expect(guessBacking(devices, front)).toEqual([backing]);
    // No accepted device sits on another accepted one: every I/O is counted once.
    const accepted = [front, backing];
    const frontEntry = byName.get(front);
    expect(frontEntry).toBeDefined();
    if (frontEntry !== undefined) expect(lowersOf(frontEntry).map((l) => l.name)).toEqual([backing]);
    expect(accepted).not.toContain(disk);
    // The stack line for the disk, in the user's language.
    // (another test's lab may be up at once on the same disk: its image is named too)
    expect(notCounted(devices).get(disk ?? '')).toContain(backing);
    expect(translate(wizard, 'en', 'dev.notCounted', { loop: backing })).toBe(`holds the image of ${backing}: not counted`);
  }, 60_000);
});
