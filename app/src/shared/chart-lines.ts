/**
 * Which chart lines an analysis carries to the dashboard: per-device lines are offered (hidden,
 * in the legend, beside the front and backing group lines) only up to this many devices; with
 * more, and group lines to draw, the host leaves them out of the view (host/series.ts), so that a
 * capture of many devices does not send megabytes of lines nobody is shown.
 */
export const MAX_DEVICE_LINES = 8;

/** Whether the per-device lines are drawn (and so carried): no group line to draw, or few devices. */
export function deviceLinesShown(devices: number, groups: number): boolean {
  return groups === 0 || devices <= MAX_DEVICE_LINES;
}
