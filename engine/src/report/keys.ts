/**
 * Every text key the report model can emit, and the keys its exporters add (units, sheet names).
 * The app's catalog (app/src/shared/i18n/report.ts) is a `Catalog<ReportKey>`, so a key
 * without a string in one of the four languages is a compile error.
 */
import { ENGINE_REPORT_KEYS } from './engine-keys.ts';
import { SHAPE_REPORT_KEYS } from './shape-keys.ts';
import { DECISION_KEYS } from './decision.ts';
import { LATENCY_CHANGE_KEYS } from './latency-change.ts';
import { BENEFIT_WORD_KEYS } from './benefit-words.ts';
import { BACKING_ONLY_KEYS } from './mode-words.ts';
import { PER_WORK_KEYS } from './per-work-words.ts';
import { PROFILE_REPORT_KEYS } from './profile-keys.ts';
import { UPPER_LAYER_KEYS } from './profile-layer.ts';
import { PROFILE_SLICE_KEYS } from './profile-slices.ts';
import { PROFILE_CHART_KEYS } from './profile-charts.ts';
import { FLEET_REPORT_KEYS } from './fleet-report.ts';
import { SIZING_KEYS } from './sizing-section.ts';

export const REPORT_KEYS = [
  'a.analysisFormat', 'a.analysisFormatValue', 'a.app', 'a.captureFile', 'a.generated', 'a.hostname',
  'a.kernel', 'a.probe', 'a.scenario', 'a.schema', 'a.sha256', 'a.size', 'a.source', 'appFacing.backing',
  'appFacing.front', 'ax.configuration', 'ax.hourUtc', 'ax.iops', 'ax.latency', 'ax.percent', 'ax.percentile',
  'ax.timeUtc', 'ax.usd', 'ax.year', 'band.baseline', 'band.measure', 'band.warmup', 'basis.mean', 'basis.p95',
  'basis.peak', 'basis.typed', 'binding.capacity', 'binding.iops', 'binding.raid-minimum', 'binding.typed',
  'breaks', 'c.after', 'c.amountUsd', 'c.avgAfter', 'c.avgBefore', 'c.awaitAfter', 'c.awaitBefore',
  'c.backingIopsAfter', 'c.backingIopsBefore', 'c.before', 'c.breakEven', 'c.breakingAfter',
  'c.breakingBefore', 'c.change', 'c.check', 'c.configuration', 'c.detail', 'c.device', 'c.drives', 'c.figure',
  'c.grade', 'c.hour', 'c.intervals', 'c.iopsAfter', 'c.iopsBefore', 'c.iosSaved', 'c.latAfter', 'c.latBefore',
  'c.latReduction', 'c.lineItem', 'c.max', 'c.mbpsAfter', 'c.mbpsBefore', 'c.model', 'c.p50', 'c.p95', 'c.p99',
  'c.role', 'c.rotational', 'c.savingsPct', 'c.savingsUsd', 'c.sizeGb', 'c.target', 'c.totalUsd',
  'c.usdPerIops', 'c.usdPerTb', 'c.utilAfter', 'c.utilBefore', 'c.window', 'card.beforeAfterIos',
  'card.cacheServed', 'card.ci', 'card.delivered', 'card.device', 'card.iosSaved', 'card.latency', 'card.normalizedIops',
  'card.readsWrites', 'card.throughput', 'card.window', 'cav.backingOnly',
  'cav.drift', 'cav.driftUnchecked', 'cav.intro', 'cav.matched', 'cav.none', 'cav.notOk', 'cav.tco',
  'cav.units', 'cav.util', 'ch.backingSum', 'ch.cacheSum', 'ch.configTotal', 'ch.deviceRole', 'ch.distSummary',
  'ch.distTitle', 'ch.hourlySummary', 'ch.hourlyTitle', 'ch.iopsTitle', 'ch.latencyTitle', 'ch.latencyFrontTitle', 'ch.latencyBackingTitle', 'ch.meanIops',
  'ch.meanMs', 'ch.noteBucket', 'ch.noteBucketSummed', 'ch.summary', 'ch.tcoCostsSummary', 'ch.tcoCostsTitle',
  'ch.tcoCumulativeSummary', 'ch.tcoCumulativeTitle', 'chg.latency', 'chg.saved', 'ci95', 'cover.author',
  'cover.baseline', 'cover.capture', 'cover.customer', 'cover.defaultTitle', 'cover.measure',
  'cover.prepared', 'cover.range', 'cover.server', 'cover.subtitle', 'cover.version', 'cover.versionValue',
  'def.cacheServed', 'def.health', 'def.iopsPerSpindleShort', 'def.iosSaved', 'def.iosToBacking',
  'def.latency', 'def.latencyReduction', 'def.matchedHours', 'def.normalizedIops', 'def.percentiles',
  'def.speedup', 'def.throughput', 'def.totalIos', 'def.util', 'drift.bytesPerSec', 'drift.iops',
  'drift.meanRequestBytes', 'drift.readSharePercent', 'dur.h', 'dur.hMin', 'dur.min', 'dur.minS', 'dur.s',
  'fig.cacheServed', 'fig.cacheServedReads', 'fig.cacheServedWrites', 'fig.health', 'fig.iopsPerSpindle',
  'fig.iopsPerSpindleShort', 'fig.deliveredIops', 'fig.iosSaved', 'fig.ioTimeSavedPerHour', 'fig.ioTimeSavedTotal', 'sum.ioTimeSaved', 'fig.iosToBacking', 'fig.iosToBackingPerSec', 'fig.latency',
  'fig.latencyReduction', 'fig.matchedHours', 'fig.matchedIosSaved', 'fig.matchedLatencyReduction',
  'fig.normalizedIops', 'fig.p50', 'fig.p95', 'fig.p99', 'fig.percentiles', 'fig.speedup', 'fig.throughput',
  'fig.totalBytes', 'fig.totalGb', 'fig.totalIos', 'fig.util', 'grade.bad', 'grade.good', 'grade.no-data',
  'grade.warning', 'hourLabel', 'iv.aquSz', 'iv.avgRequestBytes', 'iv.awaitMs', 'iv.device', 'iv.end',
  'iv.intervalMs', 'iv.iops', 'iv.rAwaitMs', 'iv.readBytes', 'iv.readMBps', 'iv.reads', 'iv.readsPerSec',
  'iv.start', 'iv.status', 'iv.utilPercent', 'iv.wAwaitMs', 'iv.writeBytes', 'iv.writeMBps', 'iv.writes',
  'iv.writesPerSec', 'm.appFacing', 'm.baseline', 'm.definitions', 'm.drift', 'm.driftUnchecked',
  'm.driftValue', 'm.intro', 'm.measure', 'm.mode', 'm.noTrim', 'm.roles', 'm.rolesValue', 'm.sampleInterval',
  'm.switch', 'm.switchAdapter', 'm.targets', 'm.trim', 'm.trimValue', 'm.uncertainty', 'm.uncertaintyValue', 'm.warmup',
  'm.warmupValue', 'm.windowValue', 'meets', 'metric.read', 'metric.transfer', 'metric.write',
  'mode.backing-only', 'mode.front-and-backing', 'm.modeValue.backing-only', 'm.modeValue.front-and-backing', 'm.targetsValue', 'na', 'no', 'noCi', 'pctl.max', 'pctl.p50', 'pctl.p95',
  'pctl.p99', 'preset.custom', 'r.distributionTitle', 'r.healthTitle', 'r.matched', 'r.matchedNone',
  'r.matchedTitle', 'role.backing', 'role.cache', 'role.front', 'role.other', 'sec.appendix',
  'sec.caveats', 'sec.method', 'sec.results', 'sec.summary', 'sec.tco', 'speedup', 'stack.drives',
  'stack.enclosures', 'stack.failures', 'stack.power', 'stack.purchase', 'stack.support', 'sum.cacheServed',
  'sum.cacheServedNa', 'sum.drift', 'sum.health', 'sum.intro', 'sum.iosSaved', 'sum.iosSavedNa',
  'sum.iosSavedNoCi', 'sum.iosRose', 'sum.latency', 'sum.latencyRose', 'sum.latencyNa', 'sum.normalizedIops', 'sum.tco', 'sum.tcoRef',
  'sum.throughput', 'sumrow.tcoTotal', 't.devicePeaks', 't.devicePeaksCaption', 'c.iopsP95', 'c.iopsPeak', 'c.mbpsP95', 'c.mbpsPeak', 'target.warn', 'preset.exchange-db', 'preset.exchange-log', 'preset.sqlserver-data', 'preset.sqlserver-log', 'preset.sharepoint', 'preset.generic', 'preset.pal', 't.imports', 't.importsCaption', 'c.file', 'c.part', 'c.format', 'c.encoding', 'c.timeZone', 'c.samples', 'c.span', 'c.sizeMb', 'c.sha256', 'verdict.saved', 'verdict.savedTco', 'verdict.savedNoLatency', 'verdict.rose', 'verdict.na', 't.devices', 't.devicesCaption', 't.distribution',
  't.distributionCaption', 't.figures', 't.health', 't.healthCaption', 't.hourly', 't.hourlyCaption',
  't.inventory', 't.tcoComparison', 't.tcoLines', 'target.read', 'target.readWrite', 'target.transfer', 'target.write',
  'tco.config', 'tco.dayOne', 'tco.examplePrices', 'tco.intro', 'tco.never', 'tco.reference', 'tco.sizing', 'tco.total',
  'tco.upfront', 'tco.year', 'unit.bytes', 'unit.count', 'unit.gb', 'unit.iops', 'unit.ios', 'unit.mb',
  'unit.mbps', 'unit.ms', 'unit.percent', 'unit.s', 'unit.tb', 'unit.usd', 'unit.usdPerIops', 'unit.usdPerTb',
  'unit.watts', 'unit.us', 'unknown', 'warmupSource.default-10pct', 'warmupSource.default-1h', 'warmupSource.option',
  'warmupSource.recorded', 'why.backing-only-mode', 'why.no-backing-io-baseline', 'why.none-breaking', 'why.none-eliminated', 'why.no-data', 'why.no-io',
  'why.no-matched-hours', 'why.no-reads', 'why.no-writes', 'why.not-reported', 'why.too-few-blocks',
  'why.zero-denominator', 'win.baseline', 'win.measure', 'winSource.option', 'winSource.phase', 'x.contents',
  'x.docTitle', 'x.legendNote', 'x.noData', 'x.pageOf', 'x.preparedWith', 'xl.after', 'xl.before',
  'xl.devices', 'xl.figure', 'xl.generated', 'xl.high', 'xl.id', 'xl.intervalsOmitted', 'xl.intervalsOmittedSheet', 'xl.intervalsSheet', 'xl.low', 'xl.path',
  'xl.sh.devices', 'xl.sh.peaks', 'xl.sh.hourly', 'xl.sh.distribution', 'xl.sh.health', 'xl.sh.rwq', 'xl.sh.sizes', 'xl.sh.workload', 'xl.sh.spans', 'xl.sh.tcoSources', 'xl.sh.tcoComparison', 'xl.sh.tcoSensitivity', 'xl.sh.tcoLines', 'xl.sh.tcoLinesN', 'xl.sh.imports', 'xl.sh.intervalsN',
  'xl.summarySheet', 'xl.unit', 'xl.value', 'yes',
  ...ENGINE_REPORT_KEYS,
  ...SHAPE_REPORT_KEYS,
  ...DECISION_KEYS,
  ...LATENCY_CHANGE_KEYS,
  ...BENEFIT_WORD_KEYS,
  ...BACKING_ONLY_KEYS,
  ...PER_WORK_KEYS,
  ...PROFILE_REPORT_KEYS,
  ...UPPER_LAYER_KEYS,
  ...PROFILE_SLICE_KEYS,
  ...PROFILE_CHART_KEYS,
  ...FLEET_REPORT_KEYS,
  ...SIZING_KEYS,
  // Savings sensitivity (tornado) and break-even beyond the period.
  'tco.beyond', 't.tcoSensitivity', 'c.input', 'c.lowValue', 'c.highValue', 'c.savingsLow', 'c.savingsHigh', 'c.swingUsd',
  'tco.sensLargest', 'tco.sensFailed', 'tsens.energyPrice', 'tsens.backingDrivePrice', 'tsens.cacheDrivePrice', 'tsens.hitShare',
  'tsens.capacityGrowth', 'tsens.iopsGrowth', 'tsens.iopsTarget', 'tsens.capacity',
  'ch.tcoSensTitle', 'ch.tcoSensSummary', 'ax.savingsChange', 'ser.sensLow', 'ser.sensHigh',
  // the prediction from the block trace (prediction-section.ts)
  'p.title', 'p.compare', 'p.method', 'p.sampled', 'p.miniature', 'p.larger', 'p.answer', 'p.answerMax', 'ch.mrcTitle', 'ch.mrcSummary',
  'ch.mrcSeries', 'ch.mrcChosen', 'ax.cacheSize', 'ax.missRatio', 'fig.predictedIosSaved',
  'ch.mrcPolicy', 'p.device', 'p.deviceTyped', 'p.dev.ram', 'p.dev.sata-ssd', 'p.dev.nvme', 'p.backing', 'p.backingExplain',
  'p.response', 'p.responseExplain', 'p.responseNone', 'p.bound', 'p.exact', 'p.policies', 'p.policyItem',
  'fig.predictedBackingIops', 'fig.predictedResponseMs',
  // where each TCO input came from (tco-section.ts sourcesTable)
  't.tcoSources', 'tco.sourcesCaption', 'c.appliesTo', 'c.valueUsed', 'c.source',
  'tin.years', 'tin.iops', 'tin.readShare', 'tin.requestSize', 'tin.capacity', 'tin.yearlyBytes', 'tin.capacityGrowth', 'tin.iopsGrowth',
  'tin.readHit', 'tin.writeHit', 'tin.ramSize', 'tin.energyKwh', 'tin.energyPerDrive', 'tin.systemPrice', 'tin.ramPrice', 'tin.drivePrice',
  'src.measured', 'src.devices', 'src.predicted', 'src.assumed', 'src.typed', 'src.default', 'src.example', 'src.quoted', 'src.fromIops', 'src.notRecorded',
  // verbatim text (a dashboard chart exported as SVG: its titles are already in the user's language)
  'x.text',
  // the short form for managers (short.ts)
  'short.subtitle', 'short.seeFull',
  // the TCO bottom line (tco-section.ts): the engine's verdict, worded by the app's verdict catalog
  'tco.verdict',
  // which scenario the TCO section prints (ReportTco.origin)
  'tco.originPlanner', 'tco.originPrefilled',
  'tl.title', 'tl.caption', 'tl.op', 'tl.mean', 'tl.p999', 'tl.range', 'tl.span', 'tl.requests', 'tl.read', 'tl.write', 'tl.all',
  // the trace latency's method and its per-hour charts (trace-latency-section.ts)
  'tl.method', 'tl.method.histograms', 'tl.method.requests', 'tl.method.requestsSampled', 'tl.hourHeading', 'tl.hourTitle',
  'tl.hourAxis', 'tl.hourSummary', 'tl.hourMore', 'tl.hourNone',
] as const;

export type ReportKey = (typeof REPORT_KEYS)[number];
