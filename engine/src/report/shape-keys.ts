/** Text keys of the report's read/write split, queue depth and request sizes (shape-section.ts); part of REPORT_KEYS (keys.ts). */
export const SHAPE_REPORT_KEYS = [
  'unit.requests',
  'rw.title', 'rw.intro', 'rw.reads', 'rw.writes', 'rw.queue', 'rw.readShare',
  'ch.rwTitle', 'ch.queueTitle', 'ch.rwItem', 'ch.noteShape', 'ax.perSecond', 'ax.queue', 'ser.rw',
  't.rwq', 't.rwqCaption', 'c.mean', 'c.peak', 'rw.bursty',
  'sz.title', 'sz.intro', 'sz.method.interval-average', 'sz.method.block-trace', 'sz.method.block-trace-sampled',
  'ch.sizesTitle', 'ch.sizesSummary', 'sz.mode', 'ax.sizeBucket', 'ax.iosShare', 'sz.series', 'sz.reads', 'sz.writes', 'sz.none',
  't.sizes', 't.sizesCaption', 'c.size', 'c.readsBefore', 'c.readsAfter', 'c.writesBefore', 'c.writesAfter',
  'sz.iosRow', 'sz.meanRow', 'sz.methodOf',
  'sz.b', 'sz.kib', 'sz.mib', 'sz.under', 'sz.range', 'sz.rangeSame', 'sz.from',
] as const;
