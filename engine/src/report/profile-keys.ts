/** Text keys of the workload-profile report (profile-report.ts); part of REPORT_KEYS (keys.ts). */
export const PROFILE_REPORT_KEYS = [
  'pr.defaultTitle', 'pr.subtitle', 'pr.cover.window',
  'pr.verdict', 'pr.health.good', 'pr.health.warning', 'pr.health.bad', 'pr.health.no-data',
  'pr.intro', 'pr.devicesValue',
  'pr.t.figures', 'pr.t.figuresCaption', 'pr.f.iops', 'pr.f.readsPerSec', 'pr.f.writesPerSec', 'pr.f.mbps', 'pr.f.awaitMs', 'pr.f.rAwaitMs', 'pr.f.wAwaitMs',
  'pr.f.aquSz', 'pr.f.utilPercent', 'pr.f.requestSize', 'pr.f.readShare', 'pr.c.unit', 'pr.u.kib',
  'pr.t.devices', 'pr.t.devicesCaption', 'pr.c.iopsMean', 'pr.c.iopsP95', 'pr.c.iopsPeak', 'pr.c.mbps', 'pr.c.latency', 'pr.c.readShare',
  'pr.healthTitle', 'pr.healthIntro', 'pr.t.health', 'pr.t.healthCaption', 'pr.c.average', 'pr.c.verdict', 'pr.c.breaking', 'pr.breakingOf',
  'pr.c.spans', 'pr.c.longest', 'pr.c.worst', 'pr.c.hours',
  'pr.t.spans', 'pr.t.spansCaption', 'pr.c.start', 'pr.c.end',
  'pr.m.intro', 'pr.m.window', 'pr.m.windowValue', 'pr.src.option', 'pr.src.baseline-phase', 'pr.src.whole-capture', 'pr.m.devices',
  'pr.def.mean', 'pr.def.p95', 'pr.def.peak', 'pr.def.health',
  'pr.cav.intro', 'pr.cav.profile', 'pr.a.format', 'pr.a.formatValue', 'pr.a.noImports',
  'pr.s.mean', 'pr.s.p95', 'pr.s.peak',
  'pr.busiest', 'pr.t.hours', 'pr.t.hoursCaption', 'pr.c.hour', 'pr.c.day',
  'pr.capTitle', 'pr.cap.notInLog', 'pr.cap.notFilling', 'pr.cap.withheld', 'pr.capWithheld', 'pr.t.capacity', 'pr.t.capacityCaption', 'pr.perDay',
  'pr.c.volume', 'pr.c.size', 'pr.c.used', 'pr.c.free', 'pr.c.usedShare', 'pr.c.growth', 'pr.c.daysToFull', 'pr.short.seeFull', 'pr.xl.hours', 'pr.xl.capacity', 'pr.capSummary', 'pr.capFirst', 'pr.capNotFilling',
] as const;
