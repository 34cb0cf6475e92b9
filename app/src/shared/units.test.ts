import { describe, expect, it } from 'vitest';
import { bytesInUnit, fmtBytes, fmtDuration, isWholeUnits, msToSeconds, parseOffset, splitSeconds, unitToBytes, utcOffsetLabel, wholeSeconds } from './units.ts';

describe('units', () => {
  it('splits seconds into days, hours, minutes and seconds', () => {
    // 3725 s = 3600 + 120 + 5 = 1 h 2 min 5 s
    expect(splitSeconds(3725)).toEqual({ d: 0, h: 1, m: 2, s: 5 });
    // 90061.4 s rounds to 90061 = 86400 + 3600 + 60 + 1
    expect(splitSeconds(90061.4)).toEqual({ d: 1, h: 1, m: 1, s: 1 });
    // below zero counts as zero
    expect(splitSeconds(-4)).toEqual({ d: 0, h: 0, m: 0, s: 0 });
    expect(msToSeconds(30_000)).toBe(30);
  });

  it('converts a typed duration to whole seconds', () => {
    expect(wholeSeconds(0.5, 3600)).toBe(1800); // 0.5 h = 1800 s
    expect(wholeSeconds(2, 60)).toBe(120); // 2 min
    expect(wholeSeconds(0.3, 1)).toBeNull(); // 0.3 s is not whole
    expect(wholeSeconds(0.1, 60)).toBe(6); // 0.1 × 60 = 6.000000000000001: whole within 10⁻⁶
  });

  it('formats a duration and a size in the locale', () => {
    // 5400 s = 1 h 30 min
    expect(fmtDuration('en', 5400)).toBe('1 hour, 30 minutes');
    expect(fmtDuration('en', 0, 'short')).toBe('0 secs');
    // 1.2e9 bytes = 1.2 GB (one decimal below 10)
    expect(fmtBytes('en', 1.2e9)).toBe('1.2 GB');
  });

  it('labels and reads offsets from UTC', () => {
    expect(utcOffsetLabel(480)).toBe('UTC+8:00'); // 480 min = 8 h
    expect(utcOffsetLabel(-330)).toBe('UTC−5:30'); // 330 min = 5 h 30 min, west of UTC
    expect(utcOffsetLabel(0)).toBe('UTC+0:00');
    expect(parseOffset('+08:00')).toBe(480); // 8 × 60
    expect(parseOffset('−5:30')).toBe(-330); // −(5 × 60 + 30)
    expect(parseOffset('480')).toBe(480);
    expect(parseOffset('  ')).toBeNull();
    expect(parseOffset('+17')).toBeNaN(); // 1020 min is beyond ±16 h (960)
  });

  it('converts sizes to and from a unit', () => {
    expect(bytesInUnit(2 * 1_073_741_824, 1_073_741_824)).toBe(2); // 2 GiB
    expect(isWholeUnits(3e9, 1e9)).toBe(true);
    expect(isWholeUnits(1_500_000_000, 1_073_741_824)).toBe(false);
    expect(unitToBytes(1.5, 1024)).toBe(1536); // 1.5 × 1024
    expect(unitToBytes(0.3333, 3)).toBe(1); // 0.9999 rounds to 1
  });
});
