import type { ReportKey, Msg, Val, Unit } from '@cacheproof/engine/report';
import type { Catalog, Lang } from './types.ts';
import { LOCALE, format } from './types.ts';
import { tco, type TcoKey } from './tco.ts';
import { driveLifeSentence, lineItemDetail } from './planner.ts';
import { warningText } from './warnings.ts';

/**
 * Strings of the proof-of-concept report (namespace `report`) and the two functions every
 * exporter uses to turn the language-neutral report model into text: {@link reportText} for a
 * message and {@link formatVal} for a value. Numbers follow the app's display rules
 * (renderer/format.ts and the dashboard): Intl number formats of the language's locale, percents
 * with 1 decimal, measured values with 3 significant digits below 100 and whole above, dates in UTC.
 */
export const report: Catalog<ReportKey> = {
  en: {
    'a.analysisFormat': 'Analysis', 'a.analysisFormatValue': 'analyze JSON format {version}, bootstrap seed {seed}', 'a.app': 'CacheProof version',
    'a.captureFile': 'Capture file', 'a.generated': 'Report generated', 'a.hostname': 'Host name', 'a.kernel': 'Kernel', 'a.probe': 'Probe version',
    'a.scenario': 'TCO scenario file', 'a.schema': 'Capture schema version', 'a.sha256': 'Capture SHA-256', 'a.size': 'Capture size', 'a.source': 'Capture source',
    'appFacing.backing': 'the backing devices ({devices}): no front device was measured', 'appFacing.front': 'the front device ({devices}), which the application sees',
    'ax.configuration': 'Configuration', 'ax.hourUtc': 'Hour of the day (UTC)', 'ax.iops': 'IOPS (I/Os per second)', 'ax.latency': 'Average response time (ms)',
    'ax.percent': 'Percent', 'ax.percentile': 'Percentile', 'ax.timeUtc': 'Time (UTC)', 'ax.usd': 'US dollars', 'ax.year': 'Year',
    'band.baseline': 'Baseline (cache off)', 'band.measure': 'Measure (cache on)', 'band.warmup': 'Warm-up (excluded)',
    'basis.p95': '95th percentile', 'basis.peak': 'peak', 'basis.mean': 'mean', 'basis.typed': 'typed in',
    'binding.capacity': 'capacity decides', 'binding.iops': 'IOPS decide', 'binding.raid-minimum': 'the RAID minimum decides', 'binding.typed': 'count typed in',
    breaks: 'breaks', meets: 'meets',
    'c.after': 'After', 'c.amountUsd': 'Amount', 'c.avgAfter': 'Average after', 'c.avgBefore': 'Average before', 'c.awaitAfter': 'Response time after', 'c.awaitBefore': 'Response time before',
    'c.backingIopsAfter': 'Backing IOPS after', 'c.backingIopsBefore': 'Backing IOPS before', 'c.before': 'Before', 'c.breakEven': 'Break-even', 'c.breakingAfter': 'Intervals breaking after',
    'c.breakingBefore': 'Intervals breaking before', 'c.change': 'Change', 'c.check': 'Check', 'c.configuration': 'Configuration', 'c.detail': 'Detail', 'c.device': 'Device',
    'c.drives': 'Drives', 'c.figure': 'Figure', 'c.grade': 'Grade', 'c.hour': 'Hour (UTC)', 'c.intervals': 'Intervals', 'c.iopsAfter': 'IOPS after', 'c.iopsBefore': 'IOPS before',
    'c.iosSaved': 'I/Os saved', 'c.latAfter': 'Response time after', 'c.latBefore': 'Response time before', 'c.latReduction': 'Response time reduction', 'c.lineItem': 'Line item',
    'c.max': 'Maximum', 'c.mbpsAfter': 'MB/s after', 'c.mbpsBefore': 'MB/s before', 'c.model': 'Model', 'c.p50': 'p50', 'c.p95': 'p95', 'c.p99': 'p99', 'c.role': 'Role',
    'c.rotational': 'Rotational', 'c.savingsPct': 'Savings', 'c.savingsUsd': 'Savings', 'c.sizeGb': 'Size', 'c.target': 'Target', 'c.totalUsd': 'Total',
    'c.usdPerIops': 'Per delivered IOPS', 'c.usdPerTb': 'Per usable TB', 'c.utilAfter': 'Busy after', 'c.utilBefore': 'Busy before', 'c.window': 'Window',
    'card.beforeAfterIos': 'before {before} → after {after} I/O', 'card.cacheServed': 'Served by the cache', 'card.ci': '{ci}', 'card.device': 'Device: {devices}',
    'card.iosSaved': 'I/Os saved from the drives', 'card.latency': 'Average response time', 'card.normalizedIops': 'Normalized IOPS', 'card.readsWrites': 'reads {reads} · writes {writes}',
    'card.reductionSpeedup': '{reduction} · {speedup}', 'card.throughput': 'Throughput', 'card.window': 'Window: before {b0}–{b1}, after {m0}–{m1} UTC',
    'cav.backingOnly': 'Only the backing devices were measured: the windows are compared per second, and the workload may have changed between them. Treat the I/Os saved as an estimate.',
    'cav.drift': 'The workload changed between the windows: {metric} changed by {change} (threshold {threshold}). Part of the difference may come from the workload, not from the cache.',
    'cav.driftUnchecked': 'Workload drift was not checked (there is no front device to compare).',
    'cav.intro': 'What the reader should know before relying on the figures: everything the analysis warned about, then the general limits of the method.',
    'cav.matched': 'Load follows the time of day: the figures over matched hours (the same UTC hours in both windows) are the fairest comparison when windows are short.',
    'cav.none': 'The analysis raised no warning for this capture.',
    'cav.notOk': '{n} intervals inside the windows carried no rate (counter reset, wrap, gap or clock jump) and were left out.',
    'cav.tco': 'The TCO figures are a model: prices, drive ratings and growth come from the scenario file, not from this measurement (except the workload and hit shares marked “measured”).',
    'cav.units': 'MB = 10⁶ bytes, GB = 10⁹ bytes, TB = 10¹² bytes; times are UTC; a diskstats sector is 512 bytes.',
    'cav.util': 'Busy % (%util) understates the capacity of devices that serve requests in parallel (SSD, RAID, loop, device-mapper); do not read 100% as saturated.',
    'ch.backingSum': 'backing devices (sum of {n})', 'ch.cacheSum': 'cache devices (sum of {n})', 'ch.configTotal': '{label}: {total} USD', 'ch.deviceRole': '{device} ({role})',
    'ch.distSummary': 'Median response time {p50Before} before and {p50After} after; 99th percentile {p99Before} before and {p99After} after.',
    'ch.distTitle': 'Response time distribution over intervals (p50, p95, p99, maximum)', 'ch.hourlySummary': 'Matched hours: {n}; over them, I/Os saved {saved} and response time reduced by {reduction}.',
    'ch.hourlyTitle': 'I/Os saved and response time reduction per matched hour of the day', 'ch.iopsTitle': 'IOPS per device over both windows', 'ch.latencyTitle': 'Average response time per device over both windows',
    'ch.meanIops': '{name}: mean {before} before, {after} after', 'ch.meanMs': '{name}: {before} before, {after} after',
    'ch.noteBucket': 'One point every {bucket}; intervals that share a point are merged (I/Os ÷ covered seconds; response time = Σ ms ÷ Σ I/Os). Gaps are periods without data.',
    'ch.noteBucketSummed': 'One point every {bucket} (intervals merged). More than {max} devices: the backing devices are drawn as one line (IOPS summed, response time weighted by I/Os); every device is in the table below.',
    'ch.summary': 'Chart summary: {text}.', 'ch.tcoCostsSummary': 'Total cost per configuration: {text}.', 'ch.tcoCostsTitle': 'Total cost over {years} years by line item',
    'ch.tcoCumulativeSummary': 'Cumulative spending from day one to year {years}; where two lines cross is a break-even.', 'ch.tcoCumulativeTitle': 'Cumulative cost per configuration',
    'chg.latency': '{reduction} lower, {speedup}; {ci}', 'chg.saved': 'saved {value}; {ci}', ci95: '95% interval {low} – {high}',
    'cover.author': 'Prepared by', 'cover.baseline': 'Baseline window (cache off)', 'cover.capture': 'Capture', 'cover.customer': 'Customer',
    'cover.defaultTitle': 'Storage cache proof of concept', 'cover.measure': 'Measure window (cache on)', 'cover.notGiven': 'not given', 'cover.prepared': 'Date',
    'cover.range': '{start} – {end}', 'cover.server': 'Server', 'cover.subtitle': 'Measured benefit of a storage cache: before and after, with method and caveats',
    'cover.version': 'Software', 'cover.versionValue': 'CacheProof {app}, probe {probe}',
    'def.cacheServed': 'Share of the front device’s reads (writes) that did not reach the backing devices in the measure window: (1 − backing ÷ front) × 100.',
    'def.health': 'Each window’s I/O-weighted average response time against the target; a window is “warning” when more than 5% of its intervals break a target, “bad” when its average does.',
    'def.iopsPerSpindleShort': 'Application-facing IOPS divided by the number of backing spindles.',
    'def.iosSaved': 'Share of backing-device I/O that the cache removed: 1 − (backing I/Os per front I/O after ÷ before), or per second in backing-only mode; 95% interval by a seeded block bootstrap.',
    'def.iosToBacking': 'Reads + writes completed by the backing devices over each window: exact sums of /proc/diskstats deltas.',
    'def.latency': 'Mean time per completed I/O at the application-facing devices: Δ ms reading + writing ÷ Δ I/Os (iostat await), over the whole window.',
    'def.latencyReduction': '(before − after) ÷ before × 100.',
    'def.matchedHours': 'The figures recomputed over the UTC hours of the day present in both windows only, so that both sides see the same part of the daily cycle.',
    'def.normalizedIops': 'IOPS one outstanding request stream could reach at the measured average response time: 1000 ÷ average ms.',
    'def.percentiles': 'Type-7 percentiles (linear interpolation) of the per-interval response times, over intervals with I/O.',
    'def.speedup': 'before ÷ after (the same change said as a factor).',
    'def.throughput': 'Bytes read and written per second at the application-facing devices (MB = 10⁶ bytes).',
    'def.totalIos': 'All I/Os completed at the application-facing devices in each window, to check that both windows did comparable work.',
    'def.util': 'Share of the interval the device had I/O in flight (io_ticks): misleading on devices that work in parallel.',
    'drift.bytesPerSec': 'throughput', 'drift.iops': 'IOPS', 'drift.meanRequestBytes': 'mean request size', 'drift.readSharePercent': 'read share',
    'dur.h': '{n} h', 'dur.hMin': '{h} h {min} min', 'dur.min': '{n} min', 'dur.minS': '{min} min {s} s', 'dur.s': '{n} s',
    'fig.cacheServed': 'Served by the cache', 'fig.cacheServedReads': 'Reads served by the cache', 'fig.cacheServedWrites': 'Writes served by the cache', 'fig.health': 'Latency targets',
    'fig.iopsPerSpindle': 'Delivered IOPS per spindle ({n})', 'fig.iopsPerSpindleShort': 'Delivered IOPS per spindle', 'fig.iosSaved': 'I/Os saved', 'fig.iosToBacking': 'I/Os to the backing drives',
    'fig.iosToBackingPerSec': 'I/Os to the backing drives per second', 'fig.latency': 'Average response time', 'fig.latencyReduction': 'Response time reduction',
    'fig.matchedHours': 'Matched hours', 'fig.matchedIosSaved': 'I/Os saved, matched hours', 'fig.matchedLatencyReduction': 'Response time reduction, matched hours',
    'fig.normalizedIops': 'Normalized IOPS', 'fig.p50': 'Response time, 50th percentile', 'fig.p95': 'Response time, 95th percentile', 'fig.p99': 'Response time, 99th percentile',
    'fig.percentiles': 'Percentiles', 'fig.speedup': 'Speed-up', 'fig.throughput': 'Throughput', 'fig.totalBytes': 'Total bytes moved', 'fig.totalGb': 'Total work (GB moved)',
    'fig.totalIos': 'Total I/Os', 'fig.util': 'Busy % (%util)',
    'grade.bad': 'bad (an average breaks a target)', 'grade.good': 'good', 'grade.no-data': 'no data', 'grade.warning': 'warning (more than 5% of intervals break a target)',
    hourLabel: '{h}:00',
    'iv.aquSz': 'Average queue size', 'iv.avgRequestBytes': 'Average request size', 'iv.awaitMs': 'Response time', 'iv.device': 'Device', 'iv.end': 'End (UTC)',
    'iv.intervalMs': 'Interval', 'iv.iops': 'IOPS', 'iv.rAwaitMs': 'Read response time', 'iv.readBytes': 'Bytes read', 'iv.readMBps': 'Read MB/s', 'iv.reads': 'Reads',
    'iv.readsPerSec': 'Reads per second', 'iv.start': 'Start (UTC)', 'iv.status': 'Status', 'iv.utilPercent': 'Busy', 'iv.wAwaitMs': 'Write response time',
    'iv.writeBytes': 'Bytes written', 'iv.writeMBps': 'Write MB/s', 'iv.writes': 'Writes', 'iv.writesPerSec': 'Writes per second',
    'm.appFacing': 'Application-facing figures from', 'm.baseline': 'Baseline window (cache off)', 'm.definitions': 'Definitions of the figures', 'm.drift': 'Workload drift check',
    'm.driftUnchecked': 'not checked (backing-only mode)', 'm.driftValue': 'IOPS, read share, request size and throughput compared; a change above {threshold} is flagged',
    'm.intro': 'The capture holds one record per device per sample interval (reads, writes, bytes, busy and wait times from /proc/diskstats or an imported log). The analysis compares a baseline window, with the cache off, against a measure window, with the cache on, after excluding a warm-up.',
    'm.measure': 'Measure window (cache on)', 'm.mode': 'Mode', 'm.noTrim': 'none', 'm.roles': 'Devices and roles',
    'm.rolesValue': 'front: {front}; backing: {backing}; cache: {cache}; other: {other}; spindles: {spindles}', 'm.sampleInterval': 'Sample interval', 'm.switch': 'Cache switched on',
    'm.targets': 'Latency targets used', 'm.trim': 'Trimmed from each window', 'm.trimValue': '{first} at the start, {last} at the end', 'm.uncertainty': 'Uncertainty',
    'm.uncertaintyValue': '95% intervals by a block bootstrap (percentile method), {replicates} replicates, seed {seed}, blocks of {blockB} (baseline) and {blockM} (measure)',
    'm.warmup': 'Warm-up excluded', 'm.warmupValue': '{duration} after the switch ({source})', 'm.windowValue': '{start} – {end} ({duration}; {source})',
    'metric.read': 'Reads', 'metric.transfer': 'Transfers (reads and writes)', 'metric.write': 'Writes',
    'mode.backing-only': 'Mode: backing devices only. The windows are compared per second; the workload may have changed between them.',
    'mode.front-and-backing': 'Mode: front and backing devices measured together, so the I/Os the cache kept from the drives are attributed exactly.',
    na: 'n/a', no: 'no', noCi: 'no interval', 'pctl.max': 'maximum', 'pctl.p50': 'p50', 'pctl.p95': 'p95', 'pctl.p99': 'p99', 'preset.custom': 'custom targets',
    'r.distributionTitle': 'Response time distribution', 'r.healthTitle': 'Health against the latency targets', 'r.matched': 'UTC hours present in both windows: {hours}. Over those hours only: I/Os saved {saved}, response time reduced by {reduction}.',
    'r.matchedNone': 'No hour of the day is present in both windows, so no matched-hours comparison is possible.', 'r.matchedTitle': 'Matched hours of the day',
    reducedBy: 'reduced by {value}', 'role.backing': 'backing', 'role.cache': 'cache', 'role.front': 'front', 'role.other': 'other',
    'sec.appendix': 'Appendix', 'sec.caveats': 'Caveats', 'sec.method': 'Method', 'sec.results': 'Results', 'sec.summary': 'Executive summary', 'sec.tco': 'Total cost of ownership and drive life',
    speedup: '{value}× faster', 'stack.drives': 'Drives', 'stack.enclosures': 'Enclosures', 'stack.failures': 'Failures and wear-out', 'stack.power': 'Power and cooling',
    'stack.purchase': 'System, cache and licence', 'stack.support': 'Support',
    'sum.cacheServed': 'The cache served {reads} of the reads and {writes} of the writes in the measure window.',
    'sum.cacheServedNa': 'The share served by the cache needs a front device; this capture measured the backing devices only.',
    'sum.drift': 'Caution: the workload changed between the windows ({metrics}); see Caveats.',
    'sum.health': 'Latency targets ({preset}: {targets}): {before} before, {after} after.',
    'sum.intro': 'This report compares the storage activity of {server} before and after a cache was switched on, over a baseline window of {baseline} and a measure window of {measure}.',
    'sum.iosSaved': 'I/Os reaching the backing drives ({devices}) fell by {value} ({ci}): {before} I/Os in the baseline window, {after} in the measure window.',
    'sum.iosSavedNa': 'The I/Os saved could not be computed: {why}.', 'sum.iosSavedNoCi': 'I/Os reaching the backing drives ({devices}) fell by {value} (no interval: too little data): {before} I/Os before, {after} after.',
    'sum.iosRose': 'I/Os reaching the backing drives ({devices}) rose by {value} instead of falling (I/Os saved {saved}; 95% interval: {ci}): {before} I/Os in the baseline window, {after} in the measure window.',
    'sum.latencyRose': 'Average response time at {devices} rose from {before} to {after}: {increase} slower (change in response time, 95% interval: {reductionCi}).',
    'sum.latency': 'Average response time at {devices} went from {before} to {after}: reduced by {reduction} ({reductionCi}), that is {speedup} ({speedupCi}).',
    'sum.latencyNa': 'The change in response time could not be computed (before {before}, after {after}).',
    'sum.normalizedIops': 'Normalized IOPS (1000 ÷ average response time in ms) went from {before} to {after}.',
    'sum.throughput': 'Throughput at {devices} was {before} before and {after} after ({gbBefore} GB over {baseline} and {gbAfter} GB over {measure}): the windows did comparable work.',
    'sum.tco': 'Over {years} years, “{label}” costs {total} USD, {savingsPct} less than “{reference}” ({refTotal} USD).',
    'sum.tcoRef': 'Over {years} years, the reference “{label}” is the cheapest configuration at {total} USD.', 'sumrow.tcoTotal': 'Total cost over {years} years: {label}',
    't.devices': 'Per device: means over each window', 't.devicesCaption': 'Before = baseline window (cache off), after = measure window (cache on). Means are ratios of sums over the window’s intervals.',
    't.distribution': 'Response time percentiles', 't.distributionCaption': 'Per-interval response time at {devices}, over intervals with I/O.', 't.figures': 'Key figures',
    't.health': 'Latency targets ({preset})', 't.healthCaption': 'Graded at {devices}. “Intervals breaking”: share of intervals whose own average is at or above the target.',
    't.hourly': 'Per hour of the day (UTC), both windows', 't.hourlyCaption': 'Hours present in both windows only. IOPS and response time at the application-facing devices.', 't.inventory': 'Devices in the capture',
    't.tcoComparison': 'Configurations compared over {years} years', 't.tcoLines': 'Line items: {label}',
    'target.read': 'reads < {ms} ms', 'target.transfer': 'transfers < {ms} ms', 'target.write': 'writes < {ms} ms',
    'tco.config': 'Configuration', 'tco.dayOne': 'from day one', 'tco.intro': 'Scenario “{title}” ({file}): {years} years, sized for year {year}. Front-end IOPS target ({basis}): {iops} today, {iopsSized} in the sizing year; capacity {tb} TB today, {tbSized} TB in the sizing year. Savings are measured against “{reference}”. Money in US dollars; TB = 10¹² bytes.',
    'tco.never': 'not in the period', 'tco.reference': 'reference',
    'tco.sizing': '{count} × {drive}, RAID {raid} ({binding}); {backEnd} back-end IOPS; {cacheDrives} cache drives; {enclosures} enclosures; {watts} W.',
    'tco.total': 'Total over {years} years', 'tco.upfront': 'Of which on day one', 'tco.year': 'year {year}',
    'unit.bytes': 'bytes', 'unit.count': '', 'unit.gb': 'GB', 'unit.iops': 'IOPS', 'unit.ios': 'I/Os', 'unit.mb': 'MB', 'unit.mbps': 'MB/s', 'unit.ms': 'ms', 'unit.percent': '%',
    'unit.s': 's', 'unit.tb': 'TB', 'unit.usd': 'USD', 'unit.usdPerIops': 'USD/IOPS', 'unit.usdPerTb': 'USD/TB', 'unit.watts': 'W', unknown: 'unknown',
    'warmupSource.default-10pct': 'default: 10% of the measure span', 'warmupSource.default-1h': 'default: 1 hour', 'warmupSource.option': 'chosen for this analysis', 'warmupSource.recorded': 'recorded by the probe',
    'why.backing-only-mode': 'needs a front device', 'why.no-backing-io-baseline': 'the backing devices did no I/O in the baseline', 'why.no-data': 'no data in the window',
    'why.no-io': 'no I/O completed', 'why.no-matched-hours': 'no hour of the day in both windows', 'why.no-reads': 'no reads completed', 'why.no-writes': 'no writes completed',
    'why.not-reported': 'not reported by the source', 'why.too-few-blocks': 'too little data for an interval', 'why.zero-denominator': 'divided by zero',
    'winSource.option': 'chosen for this analysis', 'winSource.phase': 'as recorded',
    'x.contents': 'Contents', 'x.docTitle': 'CacheProof report', 'x.legendNote': 'Shaded: baseline, warm-up and measure windows.', 'x.noData': 'no data', 'x.pageOf': 'Page {page} of {pages}',
    'x.preparedWith': 'Prepared with CacheProof {version}',
    'xl.after': 'After', 'xl.before': 'Before', 'xl.devices': 'Devices', 'xl.figure': 'Figure', 'xl.generated': 'Generated', 'xl.high': '95% high', 'xl.id': 'Id',
    'xl.intervalsOmittedSheet': 'Intervals', 'xl.intervalsOmitted': 'The {rows} per-interval rows of this capture are not in this workbook (more than {limit}, which would make it slow to write and open). The sheet “{hourly}” has the figures hour by hour; for every interval, export CSV, or XLSX with cacheproof report --all-intervals.',
    'xl.intervalsSheet': 'Intervals {device}', 'xl.low': '95% low', 'xl.path': 'Source (analyze JSON)', 'xl.summarySheet': 'Summary', 'xl.unit': 'Unit', 'xl.value': 'Value',
    'win.baseline': 'Baseline (cache off)', 'win.measure': 'Measure (cache on)',
    yes: 'yes',
  },
  fr: {
    'a.analysisFormat': 'Analyse', 'a.analysisFormatValue': 'format JSON d’analyse {version}, graine du bootstrap {seed}', 'a.app': 'Version de CacheProof',
    'a.captureFile': 'Fichier de capture', 'a.generated': 'Rapport généré le', 'a.hostname': 'Nom d’hôte', 'a.kernel': 'Noyau', 'a.probe': 'Version de la sonde',
    'a.scenario': 'Fichier de scénario TCO', 'a.schema': 'Version du schéma de capture', 'a.sha256': 'SHA-256 de la capture', 'a.size': 'Taille de la capture', 'a.source': 'Origine de la capture',
    'appFacing.backing': 'les périphériques sous-jacents ({devices}) : aucun périphérique frontal n’a été mesuré', 'appFacing.front': 'le périphérique frontal ({devices}), celui que voit l’application',
    'ax.configuration': 'Configuration', 'ax.hourUtc': 'Heure de la journée (UTC)', 'ax.iops': 'IOPS (E/S par seconde)', 'ax.latency': 'Temps de réponse moyen (ms)',
    'ax.percent': 'Pourcentage', 'ax.percentile': 'Centile', 'ax.timeUtc': 'Heure (UTC)', 'ax.usd': 'Dollars US', 'ax.year': 'Année',
    'band.baseline': 'Référence (cache désactivé)', 'band.measure': 'Mesure (cache activé)', 'band.warmup': 'Préchauffage (exclu)',
    'basis.p95': '95e centile', 'basis.peak': 'pic', 'basis.mean': 'moyenne', 'basis.typed': 'saisi',
    'binding.capacity': 'la capacité décide', 'binding.iops': 'les IOPS décident', 'binding.raid-minimum': 'le minimum RAID décide', 'binding.typed': 'nombre saisi',
    breaks: 'dépassé', meets: 'respecté',
    'c.after': 'Après', 'c.amountUsd': 'Montant', 'c.avgAfter': 'Moyenne après', 'c.avgBefore': 'Moyenne avant', 'c.awaitAfter': 'Temps de réponse après', 'c.awaitBefore': 'Temps de réponse avant',
    'c.backingIopsAfter': 'IOPS sous-jacentes après', 'c.backingIopsBefore': 'IOPS sous-jacentes avant', 'c.before': 'Avant', 'c.breakEven': 'Point mort', 'c.breakingAfter': 'Intervalles hors objectif après',
    'c.breakingBefore': 'Intervalles hors objectif avant', 'c.change': 'Évolution', 'c.check': 'Contrôle', 'c.configuration': 'Configuration', 'c.detail': 'Détail', 'c.device': 'Périphérique',
    'c.drives': 'Disques', 'c.figure': 'Indicateur', 'c.grade': 'Appréciation', 'c.hour': 'Heure (UTC)', 'c.intervals': 'Intervalles', 'c.iopsAfter': 'IOPS après', 'c.iopsBefore': 'IOPS avant',
    'c.iosSaved': 'E/S épargnées', 'c.latAfter': 'Temps de réponse après', 'c.latBefore': 'Temps de réponse avant', 'c.latReduction': 'Baisse du temps de réponse', 'c.lineItem': 'Poste',
    'c.max': 'Maximum', 'c.mbpsAfter': 'Mo/s après', 'c.mbpsBefore': 'Mo/s avant', 'c.model': 'Modèle', 'c.p50': 'p50', 'c.p95': 'p95', 'c.p99': 'p99', 'c.role': 'Rôle',
    'c.rotational': 'Rotatif', 'c.savingsPct': 'Économie', 'c.savingsUsd': 'Économie', 'c.sizeGb': 'Taille', 'c.target': 'Objectif', 'c.totalUsd': 'Total',
    'c.usdPerIops': 'Par IOPS délivrée', 'c.usdPerTb': 'Par To utile', 'c.utilAfter': 'Occupation après', 'c.utilBefore': 'Occupation avant', 'c.window': 'Fenêtre',
    'card.beforeAfterIos': 'avant {before} → après {after} E/S', 'card.cacheServed': 'Servi par le cache', 'card.ci': '{ci}', 'card.device': 'Périphérique : {devices}',
    'card.iosSaved': 'E/S épargnées aux disques', 'card.latency': 'Temps de réponse moyen', 'card.normalizedIops': 'IOPS normalisées', 'card.readsWrites': 'lectures {reads} · écritures {writes}',
    'card.reductionSpeedup': '{reduction} · {speedup}', 'card.throughput': 'Débit', 'card.window': 'Fenêtre : avant {b0}–{b1}, après {m0}–{m1} UTC',
    'cav.backingOnly': 'Seuls les périphériques sous-jacents ont été mesurés : les fenêtres sont comparées par seconde et la charge a pu changer entre elles. Les E/S épargnées sont une estimation.',
    'cav.drift': 'La charge a changé entre les fenêtres : {metric} a varié de {change} (seuil {threshold}). Une partie de l’écart peut venir de la charge et non du cache.',
    'cav.driftUnchecked': 'La dérive de la charge n’a pas été contrôlée (aucun périphérique frontal à comparer).',
    'cav.intro': 'Ce que le lecteur doit savoir avant de s’appuyer sur les chiffres : tous les avertissements de l’analyse, puis les limites générales de la méthode.',
    'cav.matched': 'La charge suit l’heure de la journée : les chiffres sur les heures appariées (les mêmes heures UTC dans les deux fenêtres) sont la comparaison la plus juste quand les fenêtres sont courtes.',
    'cav.none': 'L’analyse n’a émis aucun avertissement pour cette capture.',
    'cav.notOk': '{n} intervalles des fenêtres n’avaient pas de débit (remise à zéro, débordement, trou ou saut d’horloge) et ont été écartés.',
    'cav.tco': 'Les chiffres de TCO sont un modèle : prix, caractéristiques des disques et croissance viennent du fichier de scénario, pas de cette mesure (sauf la charge et les taux de succès marqués « mesurés »).',
    'cav.units': 'Mo = 10⁶ octets, Go = 10⁹ octets, To = 10¹² octets ; heures en UTC ; un secteur diskstats fait 512 octets.',
    'cav.util': 'Le taux d’occupation (%util) sous-estime la capacité des périphériques qui traitent les requêtes en parallèle (SSD, RAID, loop, device-mapper) : 100 % ne veut pas dire saturé.',
    'ch.backingSum': 'périphériques sous-jacents (somme de {n})', 'ch.cacheSum': 'périphériques de cache (somme de {n})', 'ch.configTotal': '{label} : {total} USD', 'ch.deviceRole': '{device} ({role})',
    'ch.distSummary': 'Temps de réponse médian {p50Before} avant et {p50After} après ; 99e centile {p99Before} avant et {p99After} après.',
    'ch.distTitle': 'Distribution des temps de réponse par intervalle (p50, p95, p99, maximum)', 'ch.hourlySummary': 'Heures appariées : {n} ; sur celles-ci, E/S épargnées {saved} et temps de réponse réduit de {reduction}.',
    'ch.hourlyTitle': 'E/S épargnées et baisse du temps de réponse par heure appariée', 'ch.iopsTitle': 'IOPS par périphérique sur les deux fenêtres', 'ch.latencyTitle': 'Temps de réponse moyen par périphérique sur les deux fenêtres',
    'ch.meanIops': '{name} : en moyenne {before} avant, {after} après', 'ch.meanMs': '{name} : {before} avant, {after} après',
    'ch.noteBucket': 'Un point toutes les {bucket} ; les intervalles d’un même point sont fusionnés (E/S ÷ secondes couvertes ; temps de réponse = Σ ms ÷ Σ E/S). Les trous sont des périodes sans données.',
    'ch.noteBucketSummed': 'Un point toutes les {bucket} (intervalles fusionnés). Plus de {max} périphériques : les périphériques sous-jacents forment une seule courbe (IOPS additionnées, temps de réponse pondéré par les E/S) ; chaque périphérique figure dans le tableau ci-dessous.',
    'ch.summary': 'Résumé du graphique : {text}.', 'ch.tcoCostsSummary': 'Coût total par configuration : {text}.', 'ch.tcoCostsTitle': 'Coût total sur {years} ans par poste',
    'ch.tcoCumulativeSummary': 'Dépenses cumulées du premier jour à l’année {years} ; là où deux courbes se croisent se trouve un point mort.', 'ch.tcoCumulativeTitle': 'Coût cumulé par configuration',
    'chg.latency': '{reduction} de moins, {speedup} ; {ci}', 'chg.saved': '{value} épargnées ; {ci}', ci95: 'intervalle à 95 % {low} – {high}',
    'cover.author': 'Préparé par', 'cover.baseline': 'Fenêtre de référence (cache désactivé)', 'cover.capture': 'Capture', 'cover.customer': 'Client',
    'cover.defaultTitle': 'Preuve de concept d’un cache de stockage', 'cover.measure': 'Fenêtre de mesure (cache activé)', 'cover.notGiven': 'non renseigné', 'cover.prepared': 'Date',
    'cover.range': '{start} – {end}', 'cover.server': 'Serveur', 'cover.subtitle': 'Gain mesuré d’un cache de stockage : avant et après, avec la méthode et les réserves',
    'cover.version': 'Logiciel', 'cover.versionValue': 'CacheProof {app}, sonde {probe}',
    'def.cacheServed': 'Part des lectures (écritures) du périphérique frontal qui n’ont pas atteint les périphériques sous-jacents pendant la mesure : (1 − sous-jacent ÷ frontal) × 100.',
    'def.health': 'Temps de réponse moyen pondéré par les E/S de chaque fenêtre comparé à l’objectif ; une fenêtre est « à surveiller » quand plus de 5 % de ses intervalles dépassent un objectif, « mauvaise » quand sa moyenne le dépasse.',
    'def.iopsPerSpindleShort': 'IOPS côté application divisées par le nombre de disques sous-jacents.',
    'def.iosSaved': 'Part des E/S des périphériques sous-jacents supprimée par le cache : 1 − (E/S sous-jacentes par E/S frontale après ÷ avant), ou par seconde en mode sous-jacent seul ; intervalle à 95 % par bootstrap par blocs à graine fixe.',
    'def.iosToBacking': 'Lectures + écritures terminées par les périphériques sous-jacents sur chaque fenêtre : sommes exactes des écarts de /proc/diskstats.',
    'def.latency': 'Temps moyen par E/S terminée sur les périphériques côté application : Δ ms en lecture + écriture ÷ Δ E/S (await d’iostat), sur toute la fenêtre.',
    'def.latencyReduction': '(avant − après) ÷ avant × 100.',
    'def.matchedHours': 'Les indicateurs recalculés sur les seules heures UTC présentes dans les deux fenêtres, pour que les deux côtés voient la même partie du cycle quotidien.',
    'def.normalizedIops': 'IOPS qu’un flux à une requête en attente atteindrait au temps de réponse moyen mesuré : 1000 ÷ ms moyennes.',
    'def.percentiles': 'Centiles de type 7 (interpolation linéaire) des temps de réponse par intervalle, sur les intervalles avec E/S.',
    'def.speedup': 'avant ÷ après (la même évolution exprimée en facteur).',
    'def.throughput': 'Octets lus et écrits par seconde sur les périphériques côté application (Mo = 10⁶ octets).',
    'def.totalIos': 'Toutes les E/S terminées côté application dans chaque fenêtre, pour vérifier que les deux fenêtres ont fourni un travail comparable.',
    'def.util': 'Part de l’intervalle pendant laquelle le périphérique avait des E/S en cours (io_ticks) : trompeur pour les périphériques qui travaillent en parallèle.',
    'drift.bytesPerSec': 'le débit', 'drift.iops': 'les IOPS', 'drift.meanRequestBytes': 'la taille moyenne des requêtes', 'drift.readSharePercent': 'la part de lectures',
    'dur.h': '{n} h', 'dur.hMin': '{h} h {min} min', 'dur.min': '{n} min', 'dur.minS': '{min} min {s} s', 'dur.s': '{n} s',
    'fig.cacheServed': 'Servi par le cache', 'fig.cacheServedReads': 'Lectures servies par le cache', 'fig.cacheServedWrites': 'Écritures servies par le cache', 'fig.health': 'Objectifs de latence',
    'fig.iopsPerSpindle': 'IOPS délivrées par disque ({n})', 'fig.iopsPerSpindleShort': 'IOPS délivrées par disque', 'fig.iosSaved': 'E/S épargnées', 'fig.iosToBacking': 'E/S vers les disques sous-jacents',
    'fig.iosToBackingPerSec': 'E/S vers les disques sous-jacents par seconde', 'fig.latency': 'Temps de réponse moyen', 'fig.latencyReduction': 'Baisse du temps de réponse',
    'fig.matchedHours': 'Heures appariées', 'fig.matchedIosSaved': 'E/S épargnées, heures appariées', 'fig.matchedLatencyReduction': 'Baisse du temps de réponse, heures appariées',
    'fig.normalizedIops': 'IOPS normalisées', 'fig.p50': 'Temps de réponse, 50e centile', 'fig.p95': 'Temps de réponse, 95e centile', 'fig.p99': 'Temps de réponse, 99e centile',
    'fig.percentiles': 'Centiles', 'fig.speedup': 'Accélération', 'fig.throughput': 'Débit', 'fig.totalBytes': 'Octets transférés', 'fig.totalGb': 'Travail total (Go transférés)',
    'fig.totalIos': 'E/S totales', 'fig.util': 'Occupation (%util)',
    'grade.bad': 'mauvais (une moyenne dépasse un objectif)', 'grade.good': 'bon', 'grade.no-data': 'pas de données', 'grade.warning': 'à surveiller (plus de 5 % des intervalles dépassent un objectif)',
    hourLabel: '{h} h',
    'iv.aquSz': 'Taille moyenne de file', 'iv.avgRequestBytes': 'Taille moyenne des requêtes', 'iv.awaitMs': 'Temps de réponse', 'iv.device': 'Périphérique', 'iv.end': 'Fin (UTC)',
    'iv.intervalMs': 'Intervalle', 'iv.iops': 'IOPS', 'iv.rAwaitMs': 'Temps de réponse en lecture', 'iv.readBytes': 'Octets lus', 'iv.readMBps': 'Mo/s lus', 'iv.reads': 'Lectures',
    'iv.readsPerSec': 'Lectures par seconde', 'iv.start': 'Début (UTC)', 'iv.status': 'État', 'iv.utilPercent': 'Occupation', 'iv.wAwaitMs': 'Temps de réponse en écriture',
    'iv.writeBytes': 'Octets écrits', 'iv.writeMBps': 'Mo/s écrits', 'iv.writes': 'Écritures', 'iv.writesPerSec': 'Écritures par seconde',
    'm.appFacing': 'Indicateurs côté application mesurés sur', 'm.baseline': 'Fenêtre de référence (cache désactivé)', 'm.definitions': 'Définition des indicateurs', 'm.drift': 'Contrôle de dérive de la charge',
    'm.driftUnchecked': 'non contrôlée (mode sous-jacent seul)', 'm.driftValue': 'IOPS, part de lectures, taille des requêtes et débit comparés ; un écart de plus de {threshold} est signalé',
    'm.intro': 'La capture contient un enregistrement par périphérique et par intervalle d’échantillonnage (lectures, écritures, octets, temps d’occupation et d’attente issus de /proc/diskstats ou d’un journal importé). L’analyse compare une fenêtre de référence, cache désactivé, à une fenêtre de mesure, cache activé, après exclusion d’un préchauffage.',
    'm.measure': 'Fenêtre de mesure (cache activé)', 'm.mode': 'Mode', 'm.noTrim': 'aucun', 'm.roles': 'Périphériques et rôles',
    'm.rolesValue': 'frontal : {front} ; sous-jacents : {backing} ; cache : {cache} ; autres : {other} ; disques : {spindles}', 'm.sampleInterval': 'Intervalle d’échantillonnage', 'm.switch': 'Activation du cache',
    'm.targets': 'Objectifs de latence appliqués', 'm.trim': 'Retiré de chaque fenêtre', 'm.trimValue': '{first} au début, {last} à la fin', 'm.uncertainty': 'Incertitude',
    'm.uncertaintyValue': 'intervalles à 95 % par bootstrap par blocs (méthode des centiles), {replicates} tirages, graine {seed}, blocs de {blockB} (référence) et {blockM} (mesure)',
    'm.warmup': 'Préchauffage exclu', 'm.warmupValue': '{duration} après la bascule ({source})', 'm.windowValue': '{start} – {end} ({duration} ; {source})',
    'metric.read': 'Lectures', 'metric.transfer': 'Transferts (lectures et écritures)', 'metric.write': 'Écritures',
    'mode.backing-only': 'Mode : périphériques sous-jacents seuls. Les fenêtres sont comparées par seconde ; la charge a pu changer entre elles.',
    'mode.front-and-backing': 'Mode : périphériques frontal et sous-jacents mesurés ensemble ; les E/S que le cache a épargnées aux disques sont attribuées exactement.',
    na: 'n.d.', no: 'non', noCi: 'pas d’intervalle', 'pctl.max': 'maximum', 'pctl.p50': 'p50', 'pctl.p95': 'p95', 'pctl.p99': 'p99', 'preset.custom': 'objectifs personnalisés',
    'r.distributionTitle': 'Distribution des temps de réponse', 'r.healthTitle': 'Santé au regard des objectifs de latence', 'r.matched': 'Heures UTC présentes dans les deux fenêtres : {hours}. Sur ces seules heures : E/S épargnées {saved}, temps de réponse réduit de {reduction}.',
    'r.matchedNone': 'Aucune heure de la journée n’est présente dans les deux fenêtres : pas de comparaison sur heures appariées.', 'r.matchedTitle': 'Heures de la journée appariées',
    reducedBy: 'réduit de {value}', 'role.backing': 'sous-jacent', 'role.cache': 'cache', 'role.front': 'frontal', 'role.other': 'autre',
    'sec.appendix': 'Annexe', 'sec.caveats': 'Réserves', 'sec.method': 'Méthode', 'sec.results': 'Résultats', 'sec.summary': 'Synthèse', 'sec.tco': 'Coût total de possession et durée de vie des disques',
    speedup: '{value} fois plus rapide', 'stack.drives': 'Disques', 'stack.enclosures': 'Tiroirs', 'stack.failures': 'Pannes et usure', 'stack.power': 'Énergie et refroidissement',
    'stack.purchase': 'Système, cache et licence', 'stack.support': 'Support',
    'sum.cacheServed': 'Le cache a servi {reads} des lectures et {writes} des écritures pendant la fenêtre de mesure.',
    'sum.cacheServedNa': 'La part servie par le cache exige un périphérique frontal ; cette capture n’a mesuré que les périphériques sous-jacents.',
    'sum.drift': 'Attention : la charge a changé entre les fenêtres ({metrics}) ; voir les Réserves.',
    'sum.health': 'Objectifs de latence ({preset} : {targets}) : {before} avant, {after} après.',
    'sum.intro': 'Ce rapport compare l’activité de stockage de {server} avant et après l’activation d’un cache, sur une fenêtre de référence de {baseline} et une fenêtre de mesure de {measure}.',
    'sum.iosSaved': 'Les E/S atteignant les disques sous-jacents ({devices}) ont baissé de {value} ({ci}) : {before} E/S dans la fenêtre de référence, {after} dans la fenêtre de mesure.',
    'sum.iosSavedNa': 'Les E/S épargnées n’ont pas pu être calculées : {why}.', 'sum.iosSavedNoCi': 'Les E/S atteignant les disques sous-jacents ({devices}) ont baissé de {value} (pas d’intervalle : trop peu de données) : {before} E/S avant, {after} après.',
    'sum.iosRose': 'Les E/S atteignant les disques sous-jacents ({devices}) ont augmenté de {value} au lieu de baisser (E/S épargnées {saved} ; intervalle à 95 % : {ci}) : {before} E/S dans la fenêtre de référence, {after} dans la fenêtre de mesure.',
    'sum.latencyRose': 'Le temps de réponse moyen sur {devices} a augmenté de {before} à {after} : {increase} plus lent (variation du temps de réponse, intervalle à 95 % : {reductionCi}).',
    'sum.latency': 'Le temps de réponse moyen sur {devices} est passé de {before} à {after} : réduit de {reduction} ({reductionCi}), soit {speedup} ({speedupCi}).',
    'sum.latencyNa': 'L’évolution du temps de réponse n’a pas pu être calculée (avant {before}, après {after}).',
    'sum.normalizedIops': 'Les IOPS normalisées (1000 ÷ temps de réponse moyen en ms) sont passées de {before} à {after}.',
    'sum.throughput': 'Le débit sur {devices} était de {before} avant et {after} après ({gbBefore} Go en {baseline} et {gbAfter} Go en {measure}) : les fenêtres ont fourni un travail comparable.',
    'sum.tco': 'Sur {years} ans, « {label} » coûte {total} USD, soit {savingsPct} de moins que « {reference} » ({refTotal} USD).',
    'sum.tcoRef': 'Sur {years} ans, la référence « {label} » est la configuration la moins chère, à {total} USD.', 'sumrow.tcoTotal': 'Coût total sur {years} ans : {label}',
    't.devices': 'Par périphérique : moyennes sur chaque fenêtre', 't.devicesCaption': 'Avant = fenêtre de référence (cache désactivé), après = fenêtre de mesure (cache activé). Les moyennes sont des rapports de sommes sur les intervalles de la fenêtre.',
    't.distribution': 'Centiles du temps de réponse', 't.distributionCaption': 'Temps de réponse par intervalle sur {devices}, intervalles avec E/S.', 't.figures': 'Indicateurs clés',
    't.health': 'Objectifs de latence ({preset})', 't.healthCaption': 'Évalués sur {devices}. « Intervalles hors objectif » : part des intervalles dont la moyenne atteint ou dépasse l’objectif.',
    't.hourly': 'Par heure de la journée (UTC), deux fenêtres', 't.hourlyCaption': 'Seules les heures présentes dans les deux fenêtres. IOPS et temps de réponse côté application.', 't.inventory': 'Périphériques de la capture',
    't.tcoComparison': 'Configurations comparées sur {years} ans', 't.tcoLines': 'Postes : {label}',
    'target.read': 'lectures < {ms} ms', 'target.transfer': 'transferts < {ms} ms', 'target.write': 'écritures < {ms} ms',
    'tco.config': 'Configuration', 'tco.dayOne': 'dès le premier jour', 'tco.intro': 'Scénario « {title} » ({file}) : {years} ans, dimensionné pour l’année {year}. Objectif d’IOPS frontales ({basis}) : {iops} aujourd’hui, {iopsSized} l’année de dimensionnement ; capacité {tb} To aujourd’hui, {tbSized} To l’année de dimensionnement. Les économies sont mesurées par rapport à « {reference} ». Montants en dollars US ; To = 10¹² octets.',
    'tco.never': 'pas sur la période', 'tco.reference': 'référence',
    'tco.sizing': '{count} × {drive}, RAID {raid} ({binding}) ; {backEnd} IOPS en aval ; {cacheDrives} disques de cache ; {enclosures} tiroirs ; {watts} W.',
    'tco.total': 'Total sur {years} ans', 'tco.upfront': 'Dont le premier jour', 'tco.year': 'année {year}',
    'unit.bytes': 'octets', 'unit.count': '', 'unit.gb': 'Go', 'unit.iops': 'IOPS', 'unit.ios': 'E/S', 'unit.mb': 'Mo', 'unit.mbps': 'Mo/s', 'unit.ms': 'ms', 'unit.percent': '%',
    'unit.s': 's', 'unit.tb': 'To', 'unit.usd': 'USD', 'unit.usdPerIops': 'USD/IOPS', 'unit.usdPerTb': 'USD/To', 'unit.watts': 'W', unknown: 'inconnu',
    'warmupSource.default-10pct': 'par défaut : 10 % de la durée de mesure', 'warmupSource.default-1h': 'par défaut : 1 heure', 'warmupSource.option': 'choisi pour cette analyse', 'warmupSource.recorded': 'enregistré par la sonde',
    'why.backing-only-mode': 'exige un périphérique frontal', 'why.no-backing-io-baseline': 'aucune E/S sous-jacente pendant la référence', 'why.no-data': 'pas de données dans la fenêtre',
    'why.no-io': 'aucune E/S terminée', 'why.no-matched-hours': 'aucune heure commune aux deux fenêtres', 'why.no-reads': 'aucune lecture terminée', 'why.no-writes': 'aucune écriture terminée',
    'why.not-reported': 'non fourni par la source', 'why.too-few-blocks': 'trop peu de données pour un intervalle', 'why.zero-denominator': 'division par zéro',
    'winSource.option': 'choisie pour cette analyse', 'winSource.phase': 'telle qu’enregistrée',
    'x.contents': 'Sommaire', 'x.docTitle': 'Rapport CacheProof', 'x.legendNote': 'Zones colorées : fenêtres de référence, de préchauffage et de mesure.', 'x.noData': 'pas de données', 'x.pageOf': 'Page {page} sur {pages}',
    'x.preparedWith': 'Préparé avec CacheProof {version}',
    'xl.after': 'Après', 'xl.before': 'Avant', 'xl.devices': 'Périphériques', 'xl.figure': 'Indicateur', 'xl.generated': 'Généré le', 'xl.high': 'Borne haute 95 %', 'xl.id': 'Id',
    'xl.intervalsOmittedSheet': 'Intervalles', 'xl.intervalsOmitted': 'Les {rows} lignes par intervalle de cette capture ne sont pas dans ce classeur (plus de {limit}, ce qui le rendrait lent à écrire et à ouvrir). La feuille « {hourly} » donne les chiffres heure par heure ; pour chaque intervalle, exportez en CSV, ou en XLSX avec cacheproof report --all-intervals.',
    'xl.intervalsSheet': 'Intervalles {device}', 'xl.low': 'Borne basse 95 %', 'xl.path': 'Source (JSON d’analyse)', 'xl.summarySheet': 'Synthèse', 'xl.unit': 'Unité', 'xl.value': 'Valeur',
    'win.baseline': 'Référence (cache désactivé)', 'win.measure': 'Mesure (cache activé)',
    yes: 'oui',
  },
  es: {
    'a.analysisFormat': 'Análisis', 'a.analysisFormatValue': 'formato JSON de análisis {version}, semilla del bootstrap {seed}', 'a.app': 'Versión de CacheProof',
    'a.captureFile': 'Archivo de captura', 'a.generated': 'Informe generado', 'a.hostname': 'Nombre del servidor', 'a.kernel': 'Kernel', 'a.probe': 'Versión de la sonda',
    'a.scenario': 'Archivo de escenario TCO', 'a.schema': 'Versión del esquema de captura', 'a.sha256': 'SHA-256 de la captura', 'a.size': 'Tamaño de la captura', 'a.source': 'Origen de la captura',
    'appFacing.backing': 'los dispositivos de respaldo ({devices}): no se midió ningún dispositivo frontal', 'appFacing.front': 'el dispositivo frontal ({devices}), el que ve la aplicación',
    'ax.configuration': 'Configuración', 'ax.hourUtc': 'Hora del día (UTC)', 'ax.iops': 'IOPS (E/S por segundo)', 'ax.latency': 'Tiempo medio de respuesta (ms)',
    'ax.percent': 'Porcentaje', 'ax.percentile': 'Percentil', 'ax.timeUtc': 'Hora (UTC)', 'ax.usd': 'Dólares EE. UU.', 'ax.year': 'Año',
    'band.baseline': 'Referencia (caché desactivada)', 'band.measure': 'Medida (caché activada)', 'band.warmup': 'Calentamiento (excluido)',
    'basis.p95': 'percentil 95', 'basis.peak': 'pico', 'basis.mean': 'media', 'basis.typed': 'introducido',
    'binding.capacity': 'decide la capacidad', 'binding.iops': 'deciden las IOPS', 'binding.raid-minimum': 'decide el mínimo RAID', 'binding.typed': 'número introducido',
    breaks: 'incumple', meets: 'cumple',
    'c.after': 'Después', 'c.amountUsd': 'Importe', 'c.avgAfter': 'Media después', 'c.avgBefore': 'Media antes', 'c.awaitAfter': 'Tiempo de respuesta después', 'c.awaitBefore': 'Tiempo de respuesta antes',
    'c.backingIopsAfter': 'IOPS de respaldo después', 'c.backingIopsBefore': 'IOPS de respaldo antes', 'c.before': 'Antes', 'c.breakEven': 'Punto de equilibrio', 'c.breakingAfter': 'Intervalos que incumplen después',
    'c.breakingBefore': 'Intervalos que incumplen antes', 'c.change': 'Cambio', 'c.check': 'Control', 'c.configuration': 'Configuración', 'c.detail': 'Detalle', 'c.device': 'Dispositivo',
    'c.drives': 'Discos', 'c.figure': 'Indicador', 'c.grade': 'Valoración', 'c.hour': 'Hora (UTC)', 'c.intervals': 'Intervalos', 'c.iopsAfter': 'IOPS después', 'c.iopsBefore': 'IOPS antes',
    'c.iosSaved': 'E/S ahorradas', 'c.latAfter': 'Tiempo de respuesta después', 'c.latBefore': 'Tiempo de respuesta antes', 'c.latReduction': 'Reducción del tiempo de respuesta', 'c.lineItem': 'Partida',
    'c.max': 'Máximo', 'c.mbpsAfter': 'MB/s después', 'c.mbpsBefore': 'MB/s antes', 'c.model': 'Modelo', 'c.p50': 'p50', 'c.p95': 'p95', 'c.p99': 'p99', 'c.role': 'Función',
    'c.rotational': 'Rotacional', 'c.savingsPct': 'Ahorro', 'c.savingsUsd': 'Ahorro', 'c.sizeGb': 'Tamaño', 'c.target': 'Objetivo', 'c.totalUsd': 'Total',
    'c.usdPerIops': 'Por IOPS entregada', 'c.usdPerTb': 'Por TB útil', 'c.utilAfter': 'Ocupación después', 'c.utilBefore': 'Ocupación antes', 'c.window': 'Ventana',
    'card.beforeAfterIos': 'antes {before} → después {after} E/S', 'card.cacheServed': 'Servido por la caché', 'card.ci': '{ci}', 'card.device': 'Dispositivo: {devices}',
    'card.iosSaved': 'E/S ahorradas a los discos', 'card.latency': 'Tiempo medio de respuesta', 'card.normalizedIops': 'IOPS normalizadas', 'card.readsWrites': 'lecturas {reads} · escrituras {writes}',
    'card.reductionSpeedup': '{reduction} · {speedup}', 'card.throughput': 'Rendimiento', 'card.window': 'Ventana: antes {b0}–{b1}, después {m0}–{m1} UTC',
    'cav.backingOnly': 'Solo se midieron los dispositivos de respaldo: las ventanas se comparan por segundo y la carga pudo cambiar entre ellas. Las E/S ahorradas son una estimación.',
    'cav.drift': 'La carga cambió entre las ventanas: {metric} varió un {change} (umbral {threshold}). Parte de la diferencia puede deberse a la carga y no a la caché.',
    'cav.driftUnchecked': 'No se comprobó la deriva de la carga (no hay dispositivo frontal con el que comparar).',
    'cav.intro': 'Lo que el lector debe saber antes de fiarse de las cifras: todas las advertencias del análisis y después los límites generales del método.',
    'cav.matched': 'La carga sigue la hora del día: las cifras sobre horas emparejadas (las mismas horas UTC en ambas ventanas) son la comparación más justa cuando las ventanas son cortas.',
    'cav.none': 'El análisis no emitió ninguna advertencia para esta captura.',
    'cav.notOk': '{n} intervalos de las ventanas no tenían tasa (reinicio de contadores, desbordamiento, hueco o salto de reloj) y se excluyeron.',
    'cav.tco': 'Las cifras de TCO son un modelo: precios, características de los discos y crecimiento vienen del archivo de escenario, no de esta medición (salvo la carga y las tasas de acierto marcadas como «medidas»).',
    'cav.units': 'MB = 10⁶ bytes, GB = 10⁹ bytes, TB = 10¹² bytes; horas en UTC; un sector de diskstats son 512 bytes.',
    'cav.util': 'La ocupación (%util) subestima la capacidad de los dispositivos que atienden peticiones en paralelo (SSD, RAID, loop, device-mapper): 100 % no significa saturado.',
    'ch.backingSum': 'dispositivos de respaldo (suma de {n})', 'ch.cacheSum': 'dispositivos de caché (suma de {n})', 'ch.configTotal': '{label}: {total} USD', 'ch.deviceRole': '{device} ({role})',
    'ch.distSummary': 'Tiempo de respuesta mediano {p50Before} antes y {p50After} después; percentil 99 {p99Before} antes y {p99After} después.',
    'ch.distTitle': 'Distribución del tiempo de respuesta por intervalo (p50, p95, p99, máximo)', 'ch.hourlySummary': 'Horas emparejadas: {n}; en ellas, E/S ahorradas {saved} y tiempo de respuesta reducido un {reduction}.',
    'ch.hourlyTitle': 'E/S ahorradas y reducción del tiempo de respuesta por hora emparejada', 'ch.iopsTitle': 'IOPS por dispositivo en ambas ventanas', 'ch.latencyTitle': 'Tiempo medio de respuesta por dispositivo en ambas ventanas',
    'ch.meanIops': '{name}: media de {before} antes, {after} después', 'ch.meanMs': '{name}: {before} antes, {after} después',
    'ch.noteBucket': 'Un punto cada {bucket}; los intervalos de un mismo punto se fusionan (E/S ÷ segundos cubiertos; tiempo de respuesta = Σ ms ÷ Σ E/S). Los huecos son periodos sin datos.',
    'ch.noteBucketSummed': 'Un punto cada {bucket} (intervalos fusionados). Más de {max} dispositivos: los de respaldo se dibujan como una sola línea (IOPS sumadas, tiempo de respuesta ponderado por E/S); cada dispositivo figura en la tabla siguiente.',
    'ch.summary': 'Resumen del gráfico: {text}.', 'ch.tcoCostsSummary': 'Coste total por configuración: {text}.', 'ch.tcoCostsTitle': 'Coste total en {years} años por partida',
    'ch.tcoCumulativeSummary': 'Gasto acumulado desde el primer día hasta el año {years}; donde se cruzan dos líneas hay un punto de equilibrio.', 'ch.tcoCumulativeTitle': 'Coste acumulado por configuración',
    'chg.latency': '{reduction} menos, {speedup}; {ci}', 'chg.saved': '{value} ahorradas; {ci}', ci95: 'intervalo del 95 % {low} – {high}',
    'cover.author': 'Preparado por', 'cover.baseline': 'Ventana de referencia (caché desactivada)', 'cover.capture': 'Captura', 'cover.customer': 'Cliente',
    'cover.defaultTitle': 'Prueba de concepto de una caché de almacenamiento', 'cover.measure': 'Ventana de medida (caché activada)', 'cover.notGiven': 'no indicado', 'cover.prepared': 'Fecha',
    'cover.range': '{start} – {end}', 'cover.server': 'Servidor', 'cover.subtitle': 'Beneficio medido de una caché de almacenamiento: antes y después, con el método y las salvedades',
    'cover.version': 'Software', 'cover.versionValue': 'CacheProof {app}, sonda {probe}',
    'def.cacheServed': 'Proporción de lecturas (escrituras) del dispositivo frontal que no llegaron a los de respaldo en la ventana de medida: (1 − respaldo ÷ frontal) × 100.',
    'def.health': 'Tiempo medio de respuesta ponderado por E/S de cada ventana frente al objetivo; una ventana es «a vigilar» cuando más del 5 % de sus intervalos incumplen un objetivo y «mala» cuando lo incumple su media.',
    'def.iopsPerSpindleShort': 'IOPS del lado de la aplicación divididas por el número de discos de respaldo.',
    'def.iosSaved': 'Proporción de E/S de respaldo que la caché eliminó: 1 − (E/S de respaldo por E/S frontal después ÷ antes), o por segundo en modo solo respaldo; intervalo del 95 % por bootstrap por bloques con semilla fija.',
    'def.iosToBacking': 'Lecturas + escrituras completadas por los dispositivos de respaldo en cada ventana: sumas exactas de diferencias de /proc/diskstats.',
    'def.latency': 'Tiempo medio por E/S completada en los dispositivos del lado de la aplicación: Δ ms de lectura + escritura ÷ Δ E/S (await de iostat), en toda la ventana.',
    'def.latencyReduction': '(antes − después) ÷ antes × 100.',
    'def.matchedHours': 'Las cifras recalculadas solo sobre las horas UTC presentes en ambas ventanas, para que ambos lados vean la misma parte del ciclo diario.',
    'def.normalizedIops': 'IOPS que alcanzaría un flujo con una petición pendiente al tiempo medio de respuesta medido: 1000 ÷ ms medios.',
    'def.percentiles': 'Percentiles de tipo 7 (interpolación lineal) de los tiempos de respuesta por intervalo, en intervalos con E/S.',
    'def.speedup': 'antes ÷ después (el mismo cambio expresado como factor).',
    'def.throughput': 'Bytes leídos y escritos por segundo en los dispositivos del lado de la aplicación (MB = 10⁶ bytes).',
    'def.totalIos': 'Todas las E/S completadas del lado de la aplicación en cada ventana, para comprobar que ambas hicieron un trabajo comparable.',
    'def.util': 'Parte del intervalo en que el dispositivo tenía E/S en curso (io_ticks): engañosa en dispositivos que trabajan en paralelo.',
    'drift.bytesPerSec': 'el rendimiento', 'drift.iops': 'las IOPS', 'drift.meanRequestBytes': 'el tamaño medio de petición', 'drift.readSharePercent': 'la proporción de lecturas',
    'dur.h': '{n} h', 'dur.hMin': '{h} h {min} min', 'dur.min': '{n} min', 'dur.minS': '{min} min {s} s', 'dur.s': '{n} s',
    'fig.cacheServed': 'Servido por la caché', 'fig.cacheServedReads': 'Lecturas servidas por la caché', 'fig.cacheServedWrites': 'Escrituras servidas por la caché', 'fig.health': 'Objetivos de latencia',
    'fig.iopsPerSpindle': 'IOPS entregadas por disco ({n})', 'fig.iopsPerSpindleShort': 'IOPS entregadas por disco', 'fig.iosSaved': 'E/S ahorradas', 'fig.iosToBacking': 'E/S a los discos de respaldo',
    'fig.iosToBackingPerSec': 'E/S a los discos de respaldo por segundo', 'fig.latency': 'Tiempo medio de respuesta', 'fig.latencyReduction': 'Reducción del tiempo de respuesta',
    'fig.matchedHours': 'Horas emparejadas', 'fig.matchedIosSaved': 'E/S ahorradas, horas emparejadas', 'fig.matchedLatencyReduction': 'Reducción del tiempo de respuesta, horas emparejadas',
    'fig.normalizedIops': 'IOPS normalizadas', 'fig.p50': 'Tiempo de respuesta, percentil 50', 'fig.p95': 'Tiempo de respuesta, percentil 95', 'fig.p99': 'Tiempo de respuesta, percentil 99',
    'fig.percentiles': 'Percentiles', 'fig.speedup': 'Aceleración', 'fig.throughput': 'Rendimiento', 'fig.totalBytes': 'Bytes transferidos', 'fig.totalGb': 'Trabajo total (GB transferidos)',
    'fig.totalIos': 'E/S totales', 'fig.util': 'Ocupación (%util)',
    'grade.bad': 'malo (una media incumple un objetivo)', 'grade.good': 'bueno', 'grade.no-data': 'sin datos', 'grade.warning': 'a vigilar (más del 5 % de los intervalos incumplen un objetivo)',
    hourLabel: '{h}:00',
    'iv.aquSz': 'Tamaño medio de cola', 'iv.avgRequestBytes': 'Tamaño medio de petición', 'iv.awaitMs': 'Tiempo de respuesta', 'iv.device': 'Dispositivo', 'iv.end': 'Fin (UTC)',
    'iv.intervalMs': 'Intervalo', 'iv.iops': 'IOPS', 'iv.rAwaitMs': 'Tiempo de respuesta de lectura', 'iv.readBytes': 'Bytes leídos', 'iv.readMBps': 'MB/s leídos', 'iv.reads': 'Lecturas',
    'iv.readsPerSec': 'Lecturas por segundo', 'iv.start': 'Inicio (UTC)', 'iv.status': 'Estado', 'iv.utilPercent': 'Ocupación', 'iv.wAwaitMs': 'Tiempo de respuesta de escritura',
    'iv.writeBytes': 'Bytes escritos', 'iv.writeMBps': 'MB/s escritos', 'iv.writes': 'Escrituras', 'iv.writesPerSec': 'Escrituras por segundo',
    'm.appFacing': 'Cifras del lado de la aplicación medidas en', 'm.baseline': 'Ventana de referencia (caché desactivada)', 'm.definitions': 'Definición de las cifras', 'm.drift': 'Control de deriva de la carga',
    'm.driftUnchecked': 'no comprobada (modo solo respaldo)', 'm.driftValue': 'se comparan IOPS, proporción de lecturas, tamaño de petición y rendimiento; se señala un cambio superior al {threshold}',
    'm.intro': 'La captura contiene un registro por dispositivo y por intervalo de muestreo (lecturas, escrituras, bytes, tiempos de ocupación y espera de /proc/diskstats o de un registro importado). El análisis compara una ventana de referencia, con la caché desactivada, con una ventana de medida, con la caché activada, tras excluir un calentamiento.',
    'm.measure': 'Ventana de medida (caché activada)', 'm.mode': 'Modo', 'm.noTrim': 'ninguno', 'm.roles': 'Dispositivos y funciones',
    'm.rolesValue': 'frontal: {front}; respaldo: {backing}; caché: {cache}; otros: {other}; discos: {spindles}', 'm.sampleInterval': 'Intervalo de muestreo', 'm.switch': 'Activación de la caché',
    'm.targets': 'Objetivos de latencia aplicados', 'm.trim': 'Recortado de cada ventana', 'm.trimValue': '{first} al inicio, {last} al final', 'm.uncertainty': 'Incertidumbre',
    'm.uncertaintyValue': 'intervalos del 95 % por bootstrap por bloques (método de percentiles), {replicates} réplicas, semilla {seed}, bloques de {blockB} (referencia) y {blockM} (medida)',
    'm.warmup': 'Calentamiento excluido', 'm.warmupValue': '{duration} tras el cambio ({source})', 'm.windowValue': '{start} – {end} ({duration}; {source})',
    'metric.read': 'Lecturas', 'metric.transfer': 'Transferencias (lecturas y escrituras)', 'metric.write': 'Escrituras',
    'mode.backing-only': 'Modo: solo dispositivos de respaldo. Las ventanas se comparan por segundo; la carga pudo cambiar entre ellas.',
    'mode.front-and-backing': 'Modo: dispositivos frontal y de respaldo medidos a la vez, así que las E/S que la caché ahorró a los discos se atribuyen con exactitud.',
    na: 'n/d', no: 'no', noCi: 'sin intervalo', 'pctl.max': 'máximo', 'pctl.p50': 'p50', 'pctl.p95': 'p95', 'pctl.p99': 'p99', 'preset.custom': 'objetivos personalizados',
    'r.distributionTitle': 'Distribución del tiempo de respuesta', 'r.healthTitle': 'Salud frente a los objetivos de latencia', 'r.matched': 'Horas UTC presentes en ambas ventanas: {hours}. Solo en esas horas: E/S ahorradas {saved}, tiempo de respuesta reducido un {reduction}.',
    'r.matchedNone': 'Ninguna hora del día está en ambas ventanas, así que no hay comparación por horas emparejadas.', 'r.matchedTitle': 'Horas del día emparejadas',
    reducedBy: 'reducido un {value}', 'role.backing': 'respaldo', 'role.cache': 'caché', 'role.front': 'frontal', 'role.other': 'otro',
    'sec.appendix': 'Anexo', 'sec.caveats': 'Salvedades', 'sec.method': 'Método', 'sec.results': 'Resultados', 'sec.summary': 'Resumen ejecutivo', 'sec.tco': 'Coste total de propiedad y vida de los discos',
    speedup: '{value} veces más rápido', 'stack.drives': 'Discos', 'stack.enclosures': 'Bandejas', 'stack.failures': 'Fallos y desgaste', 'stack.power': 'Energía y refrigeración',
    'stack.purchase': 'Sistema, caché y licencia', 'stack.support': 'Soporte',
    'sum.cacheServed': 'La caché sirvió el {reads} de las lecturas y el {writes} de las escrituras en la ventana de medida.',
    'sum.cacheServedNa': 'La proporción servida por la caché requiere un dispositivo frontal; esta captura solo midió los de respaldo.',
    'sum.drift': 'Atención: la carga cambió entre las ventanas ({metrics}); véanse las Salvedades.',
    'sum.health': 'Objetivos de latencia ({preset}: {targets}): {before} antes, {after} después.',
    'sum.intro': 'Este informe compara la actividad de almacenamiento de {server} antes y después de activar una caché, con una ventana de referencia de {baseline} y una ventana de medida de {measure}.',
    'sum.iosSaved': 'Las E/S que llegan a los discos de respaldo ({devices}) bajaron un {value} ({ci}): {before} E/S en la ventana de referencia, {after} en la de medida.',
    'sum.iosSavedNa': 'No se pudieron calcular las E/S ahorradas: {why}.', 'sum.iosSavedNoCi': 'Las E/S que llegan a los discos de respaldo ({devices}) bajaron un {value} (sin intervalo: muy pocos datos): {before} E/S antes, {after} después.',
    'sum.iosRose': 'Las E/S que llegan a los discos de respaldo ({devices}) subieron un {value} en lugar de bajar (E/S ahorradas {saved}; intervalo del 95 %: {ci}): {before} E/S en la ventana de referencia, {after} en la ventana de medición.',
    'sum.latencyRose': 'El tiempo medio de respuesta en {devices} subió de {before} a {after}: un {increase} más lento (variación del tiempo de respuesta, intervalo del 95 %: {reductionCi}).',
    'sum.latency': 'El tiempo medio de respuesta en {devices} pasó de {before} a {after}: reducido un {reduction} ({reductionCi}), es decir, {speedup} ({speedupCi}).',
    'sum.latencyNa': 'No se pudo calcular el cambio del tiempo de respuesta (antes {before}, después {after}).',
    'sum.normalizedIops': 'Las IOPS normalizadas (1000 ÷ tiempo medio de respuesta en ms) pasaron de {before} a {after}.',
    'sum.throughput': 'El rendimiento en {devices} fue de {before} antes y {after} después ({gbBefore} GB en {baseline} y {gbAfter} GB en {measure}): las ventanas hicieron un trabajo comparable.',
    'sum.tco': 'En {years} años, «{label}» cuesta {total} USD, un {savingsPct} menos que «{reference}» ({refTotal} USD).',
    'sum.tcoRef': 'En {years} años, la referencia «{label}» es la configuración más barata, con {total} USD.', 'sumrow.tcoTotal': 'Coste total en {years} años: {label}',
    't.devices': 'Por dispositivo: medias en cada ventana', 't.devicesCaption': 'Antes = ventana de referencia (caché desactivada), después = ventana de medida (caché activada). Las medias son cocientes de sumas sobre los intervalos de la ventana.',
    't.distribution': 'Percentiles del tiempo de respuesta', 't.distributionCaption': 'Tiempo de respuesta por intervalo en {devices}, intervalos con E/S.', 't.figures': 'Cifras clave',
    't.health': 'Objetivos de latencia ({preset})', 't.healthCaption': 'Evaluados en {devices}. «Intervalos que incumplen»: proporción de intervalos cuya media alcanza o supera el objetivo.',
    't.hourly': 'Por hora del día (UTC), ambas ventanas', 't.hourlyCaption': 'Solo las horas presentes en ambas ventanas. IOPS y tiempo de respuesta del lado de la aplicación.', 't.inventory': 'Dispositivos de la captura',
    't.tcoComparison': 'Configuraciones comparadas en {years} años', 't.tcoLines': 'Partidas: {label}',
    'target.read': 'lecturas < {ms} ms', 'target.transfer': 'transferencias < {ms} ms', 'target.write': 'escrituras < {ms} ms',
    'tco.config': 'Configuración', 'tco.dayOne': 'desde el primer día', 'tco.intro': 'Escenario «{title}» ({file}): {years} años, dimensionado para el año {year}. Objetivo de IOPS frontales ({basis}): {iops} hoy, {iopsSized} en el año de dimensionamiento; capacidad {tb} TB hoy, {tbSized} TB en el año de dimensionamiento. El ahorro se mide frente a «{reference}». Importes en dólares EE. UU.; TB = 10¹² bytes.',
    'tco.never': 'no en el periodo', 'tco.reference': 'referencia',
    'tco.sizing': '{count} × {drive}, RAID {raid} ({binding}); {backEnd} IOPS de back-end; {cacheDrives} discos de caché; {enclosures} bandejas; {watts} W.',
    'tco.total': 'Total en {years} años', 'tco.upfront': 'De ello, el primer día', 'tco.year': 'año {year}',
    'unit.bytes': 'bytes', 'unit.count': '', 'unit.gb': 'GB', 'unit.iops': 'IOPS', 'unit.ios': 'E/S', 'unit.mb': 'MB', 'unit.mbps': 'MB/s', 'unit.ms': 'ms', 'unit.percent': '%',
    'unit.s': 's', 'unit.tb': 'TB', 'unit.usd': 'USD', 'unit.usdPerIops': 'USD/IOPS', 'unit.usdPerTb': 'USD/TB', 'unit.watts': 'W', unknown: 'desconocido',
    'warmupSource.default-10pct': 'por defecto: 10 % de la duración de la medida', 'warmupSource.default-1h': 'por defecto: 1 hora', 'warmupSource.option': 'elegido para este análisis', 'warmupSource.recorded': 'registrado por la sonda',
    'why.backing-only-mode': 'requiere un dispositivo frontal', 'why.no-backing-io-baseline': 'los dispositivos de respaldo no tuvieron E/S en la referencia', 'why.no-data': 'sin datos en la ventana',
    'why.no-io': 'ninguna E/S completada', 'why.no-matched-hours': 'ninguna hora común a ambas ventanas', 'why.no-reads': 'ninguna lectura completada', 'why.no-writes': 'ninguna escritura completada',
    'why.not-reported': 'la fuente no lo indica', 'why.too-few-blocks': 'muy pocos datos para un intervalo', 'why.zero-denominator': 'división por cero',
    'winSource.option': 'elegida para este análisis', 'winSource.phase': 'tal como se registró',
    'x.contents': 'Índice', 'x.docTitle': 'Informe de CacheProof', 'x.legendNote': 'Sombreado: ventanas de referencia, calentamiento y medida.', 'x.noData': 'sin datos', 'x.pageOf': 'Página {page} de {pages}',
    'x.preparedWith': 'Preparado con CacheProof {version}',
    'xl.after': 'Después', 'xl.before': 'Antes', 'xl.devices': 'Dispositivos', 'xl.figure': 'Indicador', 'xl.generated': 'Generado', 'xl.high': 'Límite superior 95 %', 'xl.id': 'Id',
    'xl.intervalsOmittedSheet': 'Intervalos', 'xl.intervalsOmitted': 'Las {rows} filas por intervalo de esta captura no están en este libro (más de {limit}, lo que lo haría lento de escribir y de abrir). La hoja «{hourly}» tiene las cifras hora a hora; para cada intervalo, exporte en CSV, o en XLSX con cacheproof report --all-intervals.',
    'xl.intervalsSheet': 'Intervalos {device}', 'xl.low': 'Límite inferior 95 %', 'xl.path': 'Origen (JSON de análisis)', 'xl.summarySheet': 'Resumen', 'xl.unit': 'Unidad', 'xl.value': 'Valor',
    'win.baseline': 'Referencia (caché desactivada)', 'win.measure': 'Medida (caché activada)',
    yes: 'sí',
  },
  ru: {
    'a.analysisFormat': 'Анализ', 'a.analysisFormatValue': 'формат JSON анализа {version}, зерно бутстрапа {seed}', 'a.app': 'Версия CacheProof',
    'a.captureFile': 'Файл записи', 'a.generated': 'Отчёт создан', 'a.hostname': 'Имя сервера', 'a.kernel': 'Ядро', 'a.probe': 'Версия зонда',
    'a.scenario': 'Файл сценария TCO', 'a.schema': 'Версия схемы записи', 'a.sha256': 'SHA-256 записи', 'a.size': 'Размер записи', 'a.source': 'Источник записи',
    'appFacing.backing': 'базовых устройствах ({devices}): фронтальное устройство не измерялось', 'appFacing.front': 'фронтальном устройстве ({devices}), которое видит приложение',
    'ax.configuration': 'Конфигурация', 'ax.hourUtc': 'Час суток (UTC)', 'ax.iops': 'IOPS (операций в секунду)', 'ax.latency': 'Среднее время отклика (мс)',
    'ax.percent': 'Процент', 'ax.percentile': 'Перцентиль', 'ax.timeUtc': 'Время (UTC)', 'ax.usd': 'Доллары США', 'ax.year': 'Год',
    'band.baseline': 'Базовое окно (кэш выключен)', 'band.measure': 'Измерение (кэш включён)', 'band.warmup': 'Прогрев (исключён)',
    'basis.p95': '95-й перцентиль', 'basis.peak': 'пик', 'basis.mean': 'среднее', 'basis.typed': 'задано вручную',
    'binding.capacity': 'определяет ёмкость', 'binding.iops': 'определяют IOPS', 'binding.raid-minimum': 'определяет минимум RAID', 'binding.typed': 'число задано вручную',
    breaks: 'нарушается', meets: 'выполняется',
    'c.after': 'После', 'c.amountUsd': 'Сумма', 'c.avgAfter': 'Среднее после', 'c.avgBefore': 'Среднее до', 'c.awaitAfter': 'Время отклика после', 'c.awaitBefore': 'Время отклика до',
    'c.backingIopsAfter': 'IOPS базовых после', 'c.backingIopsBefore': 'IOPS базовых до', 'c.before': 'До', 'c.breakEven': 'Окупаемость', 'c.breakingAfter': 'Интервалы с нарушением после',
    'c.breakingBefore': 'Интервалы с нарушением до', 'c.change': 'Изменение', 'c.check': 'Проверка', 'c.configuration': 'Конфигурация', 'c.detail': 'Расчёт', 'c.device': 'Устройство',
    'c.drives': 'Диски', 'c.figure': 'Показатель', 'c.grade': 'Оценка', 'c.hour': 'Час (UTC)', 'c.intervals': 'Интервалы', 'c.iopsAfter': 'IOPS после', 'c.iopsBefore': 'IOPS до',
    'c.iosSaved': 'Сэкономлено операций', 'c.latAfter': 'Время отклика после', 'c.latBefore': 'Время отклика до', 'c.latReduction': 'Снижение времени отклика', 'c.lineItem': 'Статья',
    'c.max': 'Максимум', 'c.mbpsAfter': 'МБ/с после', 'c.mbpsBefore': 'МБ/с до', 'c.model': 'Модель', 'c.p50': 'p50', 'c.p95': 'p95', 'c.p99': 'p99', 'c.role': 'Роль',
    'c.rotational': 'Вращающийся', 'c.savingsPct': 'Экономия', 'c.savingsUsd': 'Экономия', 'c.sizeGb': 'Размер', 'c.target': 'Цель', 'c.totalUsd': 'Итого',
    'c.usdPerIops': 'За обеспеченный IOPS', 'c.usdPerTb': 'За полезный ТБ', 'c.utilAfter': 'Занятость после', 'c.utilBefore': 'Занятость до', 'c.window': 'Окно',
    'card.beforeAfterIos': 'до {before} → после {after} операций', 'card.cacheServed': 'Обслужено кэшем', 'card.ci': '{ci}', 'card.device': 'Устройство: {devices}',
    'card.iosSaved': 'Сэкономлено операций дисков', 'card.latency': 'Среднее время отклика', 'card.normalizedIops': 'Нормализованные IOPS', 'card.readsWrites': 'чтения {reads} · записи {writes}',
    'card.reductionSpeedup': '{reduction} · {speedup}', 'card.throughput': 'Пропускная способность', 'card.window': 'Окно: до {b0}–{b1}, после {m0}–{m1} UTC',
    'cav.backingOnly': 'Измерялись только базовые устройства: окна сравниваются в расчёте на секунду, и нагрузка между ними могла измениться. Сэкономленные операции — оценка.',
    'cav.drift': 'Нагрузка между окнами изменилась: {metric} — на {change} (порог {threshold}). Часть разницы может объясняться нагрузкой, а не кэшем.',
    'cav.driftUnchecked': 'Дрейф нагрузки не проверялся (нет фронтального устройства для сравнения).',
    'cav.intro': 'Что нужно знать читателю, прежде чем опираться на цифры: все предупреждения анализа, затем общие ограничения метода.',
    'cav.matched': 'Нагрузка зависит от времени суток: показатели по совпадающим часам (одни и те же часы UTC в обоих окнах) — самое честное сравнение при коротких окнах.',
    'cav.none': 'Анализ не выдал предупреждений по этой записи.',
    'cav.notOk': '{n} интервалов внутри окон не имели скорости (сброс или переполнение счётчиков, пропуск, скачок часов) и были исключены.',
    'cav.tco': 'Показатели TCO — модель: цены, характеристики дисков и рост взяты из файла сценария, а не из этого измерения (кроме нагрузки и долей попаданий с пометкой «измерено»).',
    'cav.units': 'МБ = 10⁶ байт, ГБ = 10⁹ байт, ТБ = 10¹² байт; время в UTC; сектор diskstats — 512 байт.',
    'cav.util': 'Занятость (%util) занижает возможности устройств, обслуживающих запросы параллельно (SSD, RAID, loop, device-mapper): 100 % не означает насыщения.',
    'ch.backingSum': 'базовые устройства (сумма {n})', 'ch.cacheSum': 'устройства кэша (сумма {n})', 'ch.configTotal': '{label}: {total} USD', 'ch.deviceRole': '{device} ({role})',
    'ch.distSummary': 'Медианное время отклика {p50Before} до и {p50After} после; 99-й перцентиль {p99Before} до и {p99After} после.',
    'ch.distTitle': 'Распределение времени отклика по интервалам (p50, p95, p99, максимум)', 'ch.hourlySummary': 'Совпадающих часов: {n}; по ним сэкономлено операций {saved}, время отклика меньше на {reduction}.',
    'ch.hourlyTitle': 'Сэкономленные операции и снижение времени отклика по совпадающим часам', 'ch.iopsTitle': 'IOPS по устройствам в обоих окнах', 'ch.latencyTitle': 'Среднее время отклика по устройствам в обоих окнах',
    'ch.meanIops': '{name}: в среднем {before} до, {after} после', 'ch.meanMs': '{name}: {before} до, {after} после',
    'ch.noteBucket': 'Одна точка на каждые {bucket}; интервалы одной точки объединены (операции ÷ покрытые секунды; время отклика = Σ мс ÷ Σ операций). Разрывы — периоды без данных.',
    'ch.noteBucketSummed': 'Одна точка на каждые {bucket} (интервалы объединены). Устройств больше {max}: базовые устройства показаны одной линией (IOPS суммированы, время отклика взвешено по операциям); каждое устройство есть в таблице ниже.',
    'ch.summary': 'Описание графика: {text}.', 'ch.tcoCostsSummary': 'Полная стоимость по конфигурациям: {text}.', 'ch.tcoCostsTitle': 'Полная стоимость за {years} лет по статьям',
    'ch.tcoCumulativeSummary': 'Накопленные расходы с первого дня до года {years}; пересечение двух линий — точка окупаемости.', 'ch.tcoCumulativeTitle': 'Накопленная стоимость по конфигурациям',
    'chg.latency': 'меньше на {reduction}, {speedup}; {ci}', 'chg.saved': 'сэкономлено {value}; {ci}', ci95: '95%-й интервал {low} – {high}',
    'cover.author': 'Подготовил', 'cover.baseline': 'Базовое окно (кэш выключен)', 'cover.capture': 'Запись', 'cover.customer': 'Заказчик',
    'cover.defaultTitle': 'Пилотная проверка кэша хранилища', 'cover.measure': 'Окно измерения (кэш включён)', 'cover.notGiven': 'не указано', 'cover.prepared': 'Дата',
    'cover.range': '{start} – {end}', 'cover.server': 'Сервер', 'cover.subtitle': 'Измеренная польза кэша хранилища: до и после, с методикой и оговорками',
    'cover.version': 'Программа', 'cover.versionValue': 'CacheProof {app}, зонд {probe}',
    'def.cacheServed': 'Доля чтений (записей) фронтального устройства, не дошедших до базовых в окне измерения: (1 − базовые ÷ фронтальное) × 100.',
    'def.health': 'Взвешенное по операциям среднее время отклика каждого окна в сравнении с целью; окно получает «внимание», если цель нарушают более 5 % его интервалов, и «плохо», если её нарушает среднее.',
    'def.iopsPerSpindleShort': 'IOPS на стороне приложения, делённые на число базовых дисков.',
    'def.iosSaved': 'Доля операций базовых устройств, снятая кэшем: 1 − (операций базовых на одну фронтальную после ÷ до), либо в секунду в режиме только базовых; 95%-й интервал — блочный бутстрап с фиксированным зерном.',
    'def.iosToBacking': 'Чтения + записи, завершённые базовыми устройствами за каждое окно: точные суммы приращений /proc/diskstats.',
    'def.latency': 'Среднее время на завершённую операцию на устройствах приложения: Δ мс чтения + записи ÷ Δ операций (await в iostat) за всё окно.',
    'def.latencyReduction': '(до − после) ÷ до × 100.',
    'def.matchedHours': 'Показатели, пересчитанные только по часам UTC, присутствующим в обоих окнах, чтобы обе стороны видели одну и ту же часть суточного цикла.',
    'def.normalizedIops': 'IOPS, которых достиг бы один поток с одним ожидающим запросом при измеренном среднем времени отклика: 1000 ÷ среднее в мс.',
    'def.percentiles': 'Перцентили 7-го типа (линейная интерполяция) времени отклика по интервалам с операциями.',
    'def.speedup': 'до ÷ после (то же изменение в виде коэффициента).',
    'def.throughput': 'Байт прочитано и записано в секунду на устройствах приложения (МБ = 10⁶ байт).',
    'def.totalIos': 'Все операции, завершённые на стороне приложения в каждом окне, — чтобы проверить, что окна выполнили сопоставимую работу.',
    'def.util': 'Доля интервала, когда у устройства были операции в работе (io_ticks): вводит в заблуждение для устройств, работающих параллельно.',
    'drift.bytesPerSec': 'пропускная способность', 'drift.iops': 'IOPS', 'drift.meanRequestBytes': 'средний размер запроса', 'drift.readSharePercent': 'доля чтений',
    'dur.h': '{n} ч', 'dur.hMin': '{h} ч {min} мин', 'dur.min': '{n} мин', 'dur.minS': '{min} мин {s} с', 'dur.s': '{n} с',
    'fig.cacheServed': 'Обслужено кэшем', 'fig.cacheServedReads': 'Чтения, обслуженные кэшем', 'fig.cacheServedWrites': 'Записи, обслуженные кэшем', 'fig.health': 'Целевые задержки',
    'fig.iopsPerSpindle': 'IOPS на один диск ({n})', 'fig.iopsPerSpindleShort': 'IOPS на один диск', 'fig.iosSaved': 'Сэкономлено операций', 'fig.iosToBacking': 'Операции на базовые диски',
    'fig.iosToBackingPerSec': 'Операции на базовые диски в секунду', 'fig.latency': 'Среднее время отклика', 'fig.latencyReduction': 'Снижение времени отклика',
    'fig.matchedHours': 'Совпадающие часы', 'fig.matchedIosSaved': 'Сэкономлено операций, совпадающие часы', 'fig.matchedLatencyReduction': 'Снижение времени отклика, совпадающие часы',
    'fig.normalizedIops': 'Нормализованные IOPS', 'fig.p50': 'Время отклика, 50-й перцентиль', 'fig.p95': 'Время отклика, 95-й перцентиль', 'fig.p99': 'Время отклика, 99-й перцентиль',
    'fig.percentiles': 'Перцентили', 'fig.speedup': 'Ускорение', 'fig.throughput': 'Пропускная способность', 'fig.totalBytes': 'Всего байт передано', 'fig.totalGb': 'Всего работы (ГБ передано)',
    'fig.totalIos': 'Всего операций', 'fig.util': 'Занятость (%util)',
    'grade.bad': 'плохо (среднее нарушает цель)', 'grade.good': 'хорошо', 'grade.no-data': 'нет данных', 'grade.warning': 'внимание (цель нарушают более 5 % интервалов)',
    hourLabel: '{h}:00',
    'iv.aquSz': 'Средняя длина очереди', 'iv.avgRequestBytes': 'Средний размер запроса', 'iv.awaitMs': 'Время отклика', 'iv.device': 'Устройство', 'iv.end': 'Конец (UTC)',
    'iv.intervalMs': 'Интервал', 'iv.iops': 'IOPS', 'iv.rAwaitMs': 'Время отклика чтения', 'iv.readBytes': 'Байт прочитано', 'iv.readMBps': 'Чтение, МБ/с', 'iv.reads': 'Чтения',
    'iv.readsPerSec': 'Чтений в секунду', 'iv.start': 'Начало (UTC)', 'iv.status': 'Состояние', 'iv.utilPercent': 'Занятость', 'iv.wAwaitMs': 'Время отклика записи',
    'iv.writeBytes': 'Байт записано', 'iv.writeMBps': 'Запись, МБ/с', 'iv.writes': 'Записи', 'iv.writesPerSec': 'Записей в секунду',
    'm.appFacing': 'Показатели приложения измерены на', 'm.baseline': 'Базовое окно (кэш выключен)', 'm.definitions': 'Определения показателей', 'm.drift': 'Проверка дрейфа нагрузки',
    'm.driftUnchecked': 'не проверялся (режим только базовых устройств)', 'm.driftValue': 'сравниваются IOPS, доля чтений, размер запроса и пропускная способность; изменение больше {threshold} отмечается',
    'm.intro': 'Запись содержит по одной строке на устройство за каждый интервал опроса (чтения, записи, байты, время занятости и ожидания из /proc/diskstats или импортированного журнала). Анализ сравнивает базовое окно с выключенным кэшем и окно измерения с включённым кэшем, исключив прогрев.',
    'm.measure': 'Окно измерения (кэш включён)', 'm.mode': 'Режим', 'm.noTrim': 'нет', 'm.roles': 'Устройства и роли',
    'm.rolesValue': 'фронтальные: {front}; базовые: {backing}; кэш: {cache}; прочие: {other}; дисков: {spindles}', 'm.sampleInterval': 'Интервал опроса', 'm.switch': 'Включение кэша',
    'm.targets': 'Применённые целевые задержки', 'm.trim': 'Обрезано с каждого окна', 'm.trimValue': '{first} в начале, {last} в конце', 'm.uncertainty': 'Неопределённость',
    'm.uncertaintyValue': '95%-е интервалы — блочный бутстрап (метод перцентилей), {replicates} повторов, зерно {seed}, блоки по {blockB} (базовое окно) и {blockM} (измерение)',
    'm.warmup': 'Исключённый прогрев', 'm.warmupValue': '{duration} после переключения ({source})', 'm.windowValue': '{start} – {end} ({duration}; {source})',
    'metric.read': 'Чтения', 'metric.transfer': 'Все операции (чтения и записи)', 'metric.write': 'Записи',
    'mode.backing-only': 'Режим: только базовые устройства. Окна сравниваются в расчёте на секунду; нагрузка между ними могла измениться.',
    'mode.front-and-backing': 'Режим: фронтальное и базовые устройства измерялись одновременно, поэтому операции, которые кэш снял с дисков, учитываются точно.',
    na: 'н/д', no: 'нет', noCi: 'без интервала', 'pctl.max': 'максимум', 'pctl.p50': 'p50', 'pctl.p95': 'p95', 'pctl.p99': 'p99', 'preset.custom': 'свои цели',
    'r.distributionTitle': 'Распределение времени отклика', 'r.healthTitle': 'Соответствие целевым задержкам', 'r.matched': 'Часы UTC, присутствующие в обоих окнах: {hours}. Только по этим часам: сэкономлено операций {saved}, время отклика меньше на {reduction}.',
    'r.matchedNone': 'Ни один час суток не присутствует в обоих окнах, поэтому сравнение по совпадающим часам невозможно.', 'r.matchedTitle': 'Совпадающие часы суток',
    reducedBy: 'меньше на {value}', 'role.backing': 'базовое', 'role.cache': 'кэш', 'role.front': 'фронтальное', 'role.other': 'прочее',
    'sec.appendix': 'Приложение', 'sec.caveats': 'Оговорки', 'sec.method': 'Методика', 'sec.results': 'Результаты', 'sec.summary': 'Краткие итоги', 'sec.tco': 'Совокупная стоимость владения и ресурс дисков',
    speedup: 'в {value} раза быстрее', 'stack.drives': 'Диски', 'stack.enclosures': 'Полки', 'stack.failures': 'Отказы и износ', 'stack.power': 'Питание и охлаждение',
    'stack.purchase': 'Система, кэш и лицензия', 'stack.support': 'Поддержка',
    'sum.cacheServed': 'В окне измерения кэш обслужил {reads} чтений и {writes} записей.',
    'sum.cacheServedNa': 'Для доли, обслуженной кэшем, нужно фронтальное устройство; в этой записи измерялись только базовые.',
    'sum.drift': 'Внимание: нагрузка между окнами изменилась ({metrics}); см. «Оговорки».',
    'sum.health': 'Целевые задержки ({preset}: {targets}): до — {before}, после — {after}.',
    'sum.intro': 'В отчёте сравнивается работа хранилища сервера {server} до и после включения кэша: базовое окно {baseline}, окно измерения {measure}.',
    'sum.iosSaved': 'Число операций, доходящих до базовых дисков ({devices}), снизилось на {value} ({ci}): {before} операций в базовом окне, {after} в окне измерения.',
    'sum.iosSavedNa': 'Сэкономленные операции вычислить не удалось: {why}.', 'sum.iosSavedNoCi': 'Число операций, доходящих до базовых дисков ({devices}), снизилось на {value} (без интервала: слишком мало данных): {before} до, {after} после.',
    'sum.iosRose': 'Число операций, доходящих до базовых дисков ({devices}), выросло на {value}, а не снизилось (сэкономлено {saved}; 95%-й интервал: {ci}): {before} в базовом окне, {after} в окне измерения.',
    'sum.latencyRose': 'Среднее время отклика на {devices} выросло с {before} до {after}: медленнее на {increase} (изменение времени отклика, 95%-й интервал: {reductionCi}).',
    'sum.latency': 'Среднее время отклика на {devices} изменилось с {before} до {after}: меньше на {reduction} ({reductionCi}), то есть {speedup} ({speedupCi}).',
    'sum.latencyNa': 'Изменение времени отклика вычислить не удалось (до {before}, после {after}).',
    'sum.normalizedIops': 'Нормализованные IOPS (1000 ÷ среднее время отклика в мс) выросли с {before} до {after}.',
    'sum.throughput': 'Пропускная способность на {devices}: {before} до и {after} после ({gbBefore} ГБ за {baseline} и {gbAfter} ГБ за {measure}); окна выполнили сопоставимую работу.',
    'sum.tco': 'За {years} лет «{label}» стоит {total} USD, на {savingsPct} меньше, чем «{reference}» ({refTotal} USD).',
    'sum.tcoRef': 'За {years} лет базовая конфигурация «{label}» самая дешёвая: {total} USD.', 'sumrow.tcoTotal': 'Полная стоимость за {years} лет: {label}',
    't.devices': 'По устройствам: средние за каждое окно', 't.devicesCaption': 'До = базовое окно (кэш выключен), после = окно измерения (кэш включён). Средние — отношения сумм по интервалам окна.',
    't.distribution': 'Перцентили времени отклика', 't.distributionCaption': 'Время отклика по интервалам на {devices}, интервалы с операциями.', 't.figures': 'Ключевые показатели',
    't.health': 'Целевые задержки ({preset})', 't.healthCaption': 'Оценка на {devices}. «Интервалы с нарушением»: доля интервалов, среднее которых не ниже цели.',
    't.hourly': 'По часам суток (UTC), оба окна', 't.hourlyCaption': 'Только часы, присутствующие в обоих окнах. IOPS и время отклика на стороне приложения.', 't.inventory': 'Устройства в записи',
    't.tcoComparison': 'Сравнение конфигураций за {years} лет', 't.tcoLines': 'Статьи расходов: {label}',
    'target.read': 'чтения < {ms} мс', 'target.transfer': 'операции < {ms} мс', 'target.write': 'записи < {ms} мс',
    'tco.config': 'Конфигурация', 'tco.dayOne': 'с первого дня', 'tco.intro': 'Сценарий «{title}» ({file}): {years} лет, расчёт на год {year}. Целевые фронтальные IOPS ({basis}): {iops} сегодня, {iopsSized} в расчётный год; ёмкость {tb} ТБ сегодня, {tbSized} ТБ в расчётный год. Экономия считается относительно «{reference}». Суммы в долларах США; ТБ = 10¹² байт.',
    'tco.never': 'не в пределах периода', 'tco.reference': 'эталон',
    'tco.sizing': '{count} × {drive}, RAID {raid} ({binding}); {backEnd} IOPS на дисках; дисков кэша: {cacheDrives}; полок: {enclosures}; {watts} Вт.',
    'tco.total': 'Итого за {years} лет', 'tco.upfront': 'В том числе в первый день', 'tco.year': 'год {year}',
    'unit.bytes': 'байт', 'unit.count': '', 'unit.gb': 'ГБ', 'unit.iops': 'IOPS', 'unit.ios': 'операций', 'unit.mb': 'МБ', 'unit.mbps': 'МБ/с', 'unit.ms': 'мс', 'unit.percent': '%',
    'unit.s': 'с', 'unit.tb': 'ТБ', 'unit.usd': 'USD', 'unit.usdPerIops': 'USD/IOPS', 'unit.usdPerTb': 'USD/ТБ', 'unit.watts': 'Вт', unknown: 'неизвестно',
    'warmupSource.default-10pct': 'по умолчанию: 10 % длительности измерения', 'warmupSource.default-1h': 'по умолчанию: 1 час', 'warmupSource.option': 'задан для этого анализа', 'warmupSource.recorded': 'записан зондом',
    'why.backing-only-mode': 'нужно фронтальное устройство', 'why.no-backing-io-baseline': 'у базовых устройств не было операций в базовом окне', 'why.no-data': 'нет данных в окне',
    'why.no-io': 'нет завершённых операций', 'why.no-matched-hours': 'нет часов, общих для обоих окон', 'why.no-reads': 'нет завершённых чтений', 'why.no-writes': 'нет завершённых записей',
    'why.not-reported': 'источник этого не сообщает', 'why.too-few-blocks': 'слишком мало данных для интервала', 'why.zero-denominator': 'деление на ноль',
    'winSource.option': 'задано для этого анализа', 'winSource.phase': 'как записано',
    'x.contents': 'Содержание', 'x.docTitle': 'Отчёт CacheProof', 'x.legendNote': 'Заливка: базовое окно, прогрев и окно измерения.', 'x.noData': 'нет данных', 'x.pageOf': 'Страница {page} из {pages}',
    'x.preparedWith': 'Подготовлено в CacheProof {version}',
    'xl.after': 'После', 'xl.before': 'До', 'xl.devices': 'Устройства', 'xl.figure': 'Показатель', 'xl.generated': 'Создано', 'xl.high': 'Верхняя граница 95 %', 'xl.id': 'Код',
    'xl.intervalsOmittedSheet': 'Интервалы', 'xl.intervalsOmitted': 'Строки по интервалам этого захвата ({rows}) не включены в книгу (их больше {limit}: книгу было бы долго записывать и открывать). Лист «{hourly}» содержит показатели по часам; для всех интервалов экспортируйте CSV или XLSX с cacheproof report --all-intervals.',
    'xl.intervalsSheet': 'Интервалы {device}', 'xl.low': 'Нижняя граница 95 %', 'xl.path': 'Источник (JSON анализа)', 'xl.summarySheet': 'Итоги', 'xl.unit': 'Единица', 'xl.value': 'Значение',
    'win.baseline': 'Базовое окно (кэш выключен)', 'win.measure': 'Измерение (кэш включён)',
    yes: 'да',
  },
};

/** A fixed-decimals number in the language's format (the app's `fmtNumber`). */
export function fmtNum(lang: Lang, value: number, digits = 0): string {
  return new Intl.NumberFormat(LOCALE[lang], { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value);
}

/** A 0–100 percent (the app's `fmtPercent`): `73.4%` in English, `73,4 %` in French. */
export function fmtPct(lang: Lang, value: number, digits = 1): string {
  return new Intl.NumberFormat(LOCALE[lang], { style: 'percent', minimumFractionDigits: digits, maximumFractionDigits: digits }).format(value / 100);
}

/**
 * A measured value with the dashboard's precision (renderer/format.ts `fmtSig`): three
 * significant digits below 100 (0.182, 12.3), whole numbers from 100 (1 234).
 */
export function fmtSig(lang: Lang, value: number): string {
  if (Math.abs(value) >= 100 || value === 0) return new Intl.NumberFormat(LOCALE[lang], { maximumFractionDigits: 0 }).format(value);
  return new Intl.NumberFormat(LOCALE[lang], { maximumSignificantDigits: 3 }).format(value);
}

/** A response time as the dashboard shows it: {@link fmtSig} and the unit (`0,182 ms`). */
export function fmtMs(lang: Lang, value: number): string {
  return `${fmtSig(lang, value)} ${report[lang]['unit.ms']}`;
}

function fmtTime(lang: Lang, ms: number, style: 'datetime' | 'date' | 'time'): string {
  const d = new Date(ms);
  if (style === 'date') return new Intl.DateTimeFormat(LOCALE[lang], { dateStyle: 'long', timeZone: 'UTC' }).format(d);
  if (style === 'time') return new Intl.DateTimeFormat(LOCALE[lang], { timeStyle: 'medium', timeZone: 'UTC' }).format(d);
  return `${new Intl.DateTimeFormat(LOCALE[lang], { dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC' }).format(d)} UTC`;
}

/** The symbol of a unit in a language ('' for plain counts). */
export function unitText(unit: Unit, lang: Lang): string {
  return report[lang][`unit.${unit}`];
}

/** A column head with its unit: `Response time before (ms)`; no unit when the head already says it. */
export function headWithUnit(head: string, unit: Unit | undefined | null, lang: Lang): string {
  if (unit === undefined || unit === null) return head;
  const sym = unitText(unit, lang);
  return sym === '' || head.includes(sym) ? head : `${head} (${sym})`;
}

function na(lang: Lang, why: string | undefined): string {
  const base = report[lang].na;
  if (why === undefined) return base;
  const key = `why.${why}` as ReportKey;
  return key in report.en ? `${base} (${report[lang][key]})` : base;
}

/** One value of the model as text in a language; `bare`: without its unit (a table column already says it). */
export function formatVal(v: Val, lang: Lang, bare = false): string {
  switch (v.k) {
    case 'num':
      if (v.v === null) return na(lang, v.why);
      return bare || v.unit === undefined || unitText(v.unit, lang) === '' ? fmtNum(lang, v.v, v.d) : `${fmtNum(lang, v.v, v.d)} ${unitText(v.unit, lang)}`;
    case 'pct':
      return v.v === null ? na(lang, v.why) : fmtPct(lang, v.v, v.d);
    case 'sig':
      if (v.v === null) return na(lang, v.why);
      return bare || v.unit === undefined || unitText(v.unit, lang) === '' ? fmtSig(lang, v.v) : `${fmtSig(lang, v.v)} ${unitText(v.unit, lang)}`;
    case 'ms':
      return v.v === null ? na(lang, v.why) : bare ? fmtSig(lang, v.v) : fmtMs(lang, v.v);
    case 'x':
      return v.v === null ? na(lang, v.why) : `${fmtSig(lang, v.v)}×`;
    case 'ci': {
      const f = (n: number): string => (v.of === 'pct' ? fmtPct(lang, n, v.d) : v.of === 'x' ? `${fmtSig(lang, n)}×` : fmtSig(lang, n));
      return format(report[lang].ci95, { low: f(v.low), high: f(v.high) });
    }
    case 'time':
      return fmtTime(lang, v.ms, v.style);
    case 'str':
      return v.s;
    case 'msg':
      return reportText(v.m, lang);
    case 'list':
      return v.items.map((x) => formatVal(x, lang)).filter((s) => s !== '').join(v.sep ?? ', ');
    case 'warning':
      return warningText(v.w, lang);
    case 'tcoLine':
      return tco[lang][`line.${v.id}` as TcoKey];
    case 'tcoDetail':
      return lineItemDetail(v.line, lang);
    case 'tcoLife':
      return driveLifeSentence(v.config, v.years, lang, v.cache);
    case 'tcoWarn': {
      const key = `warn.${v.code}` as TcoKey;
      const params: Record<string, string | number> = {};
      for (const [k, x] of Object.entries(v.params)) params[k] = typeof x === 'number' ? fmtNum(lang, x, Number.isInteger(x) ? 0 : 2) : x;
      return key in tco.en ? format(tco[lang][key], params) : v.code;
    }
    case 'empty':
      return '';
  }
}

/** A message of the model in a language (parameters formatted with {@link formatVal}). */
export function reportText(msg: Msg, lang: Lang): string {
  const params: Record<string, string> = {};
  for (const [k, v] of Object.entries(msg.p ?? {})) params[k] = formatVal(v, lang);
  return format(report[lang][msg.key] ?? report.en[msg.key], params);
}

/** A bare key of the catalog (headings the exporters add). */
export function rt(key: ReportKey, lang: Lang, params: Record<string, string | number> = {}): string {
  return format(report[lang][key], params);
}

/** Strings of the Export screen (namespace `export`). */
export type ExportKey =
  | 'nav' | 'title' | 'intro' | 'cover' | 'f.title' | 'f.customer' | 'f.server' | 'f.author' | 'f.date' | 'h.title' | 'h.server'
  | 'options' | 'f.lang' | 'f.format' | 'f.paper' | 'f.tco' | 'h.tco' | 'fmt.pdf' | 'fmt.html' | 'fmt.xlsx' | 'fmt.csv' | 'paper.a4' | 'paper.letter'
  | 'start' | 'preview' | 'previewLoading' | 'progress' | 'stage.open' | 'stage.hash' | 'stage.analyze' | 'stage.model' | 'stage.render'
  | 'stage.print' | 'stage.write' | 'stage.done' | 'saved' | 'download';

export const exportUi: Catalog<ExportKey> = {
  en: {
    nav: 'Export', title: 'Export the proof-of-concept report', intro: 'The report explains itself to someone who never saw this app: figures with their intervals, method, charts, caveats and appendix. The preview below is the document that will be written.',
    cover: 'Cover', 'f.title': 'Title', 'f.customer': 'Customer', 'f.server': 'Server', 'f.author': 'Prepared by', 'f.date': 'Date',
    'h.title': 'Default: “Storage cache proof of concept”.', 'h.server': 'Default: the host name in the capture.',
    options: 'Document', 'f.lang': 'Language of the report', 'f.format': 'Format', 'f.paper': 'Paper size', 'f.tco': 'Include the TCO and drive-life section',
    'h.tco': 'Uses the scenario prefilled from this analysis (the Planner’s starting point).',
    'fmt.pdf': 'PDF (to print or send)', 'fmt.html': 'HTML (one offline file)', 'fmt.xlsx': 'Excel workbook (XLSX)', 'fmt.csv': 'CSV (summary and per-interval data)',
    'paper.a4': 'A4', 'paper.letter': 'Letter', start: 'Export', preview: 'Preview', previewLoading: 'Preparing the preview…', progress: 'Export progress',
    'stage.open': 'Opening the capture', 'stage.hash': 'Computing the file’s fingerprint', 'stage.analyze': 'Analysing', 'stage.model': 'Building the report',
    'stage.render': 'Drawing the charts', 'stage.print': 'Printing the PDF', 'stage.write': 'Writing the file', 'stage.done': 'Done',
    saved: 'Saved: {files}.', download: 'Download {name} again',
  },
  fr: {
    nav: 'Export', title: 'Exporter le rapport de preuve de concept', intro: 'Le rapport s’explique seul à qui n’a jamais vu cette application : chiffres avec leurs intervalles, méthode, graphiques, réserves et annexe. L’aperçu ci-dessous est le document qui sera écrit.',
    cover: 'Couverture', 'f.title': 'Titre', 'f.customer': 'Client', 'f.server': 'Serveur', 'f.author': 'Préparé par', 'f.date': 'Date',
    'h.title': 'Par défaut : « Preuve de concept d’un cache de stockage ».', 'h.server': 'Par défaut : le nom d’hôte de la capture.',
    options: 'Document', 'f.lang': 'Langue du rapport', 'f.format': 'Format', 'f.paper': 'Format du papier', 'f.tco': 'Inclure la section TCO et durée de vie des disques',
    'h.tco': 'Utilise le scénario pré-rempli à partir de cette analyse (le point de départ du Planificateur).',
    'fmt.pdf': 'PDF (à imprimer ou envoyer)', 'fmt.html': 'HTML (un seul fichier hors ligne)', 'fmt.xlsx': 'Classeur Excel (XLSX)', 'fmt.csv': 'CSV (synthèse et données par intervalle)',
    'paper.a4': 'A4', 'paper.letter': 'Letter (US)', start: 'Exporter', preview: 'Aperçu', previewLoading: 'Préparation de l’aperçu…', progress: 'Progression de l’export',
    'stage.open': 'Ouverture de la capture', 'stage.hash': 'Calcul de l’empreinte du fichier', 'stage.analyze': 'Analyse', 'stage.model': 'Construction du rapport',
    'stage.render': 'Dessin des graphiques', 'stage.print': 'Impression du PDF', 'stage.write': 'Écriture du fichier', 'stage.done': 'Terminé',
    saved: 'Enregistré : {files}.', download: 'Télécharger à nouveau {name}',
  },
  es: {
    nav: 'Exportar', title: 'Exportar el informe de prueba de concepto', intro: 'El informe se explica solo ante quien nunca vio esta aplicación: cifras con sus intervalos, método, gráficos, salvedades y anexo. La vista previa es el documento que se escribirá.',
    cover: 'Portada', 'f.title': 'Título', 'f.customer': 'Cliente', 'f.server': 'Servidor', 'f.author': 'Preparado por', 'f.date': 'Fecha',
    'h.title': 'Por defecto: «Prueba de concepto de una caché de almacenamiento».', 'h.server': 'Por defecto: el nombre del servidor en la captura.',
    options: 'Documento', 'f.lang': 'Idioma del informe', 'f.format': 'Formato', 'f.paper': 'Tamaño del papel', 'f.tco': 'Incluir la sección de TCO y vida de los discos',
    'h.tco': 'Usa el escenario rellenado a partir de este análisis (el punto de partida del Planificador).',
    'fmt.pdf': 'PDF (para imprimir o enviar)', 'fmt.html': 'HTML (un archivo sin conexión)', 'fmt.xlsx': 'Libro de Excel (XLSX)', 'fmt.csv': 'CSV (resumen y datos por intervalo)',
    'paper.a4': 'A4', 'paper.letter': 'Carta (Letter)', start: 'Exportar', preview: 'Vista previa', previewLoading: 'Preparando la vista previa…', progress: 'Progreso de la exportación',
    'stage.open': 'Abriendo la captura', 'stage.hash': 'Calculando la huella del archivo', 'stage.analyze': 'Analizando', 'stage.model': 'Construyendo el informe',
    'stage.render': 'Dibujando los gráficos', 'stage.print': 'Imprimiendo el PDF', 'stage.write': 'Escribiendo el archivo', 'stage.done': 'Terminado',
    saved: 'Guardado: {files}.', download: 'Descargar de nuevo {name}',
  },
  ru: {
    nav: 'Экспорт', title: 'Экспорт отчёта о пилотной проверке', intro: 'Отчёт понятен без этого приложения: показатели с интервалами, методика, графики, оговорки и приложение. Ниже — предпросмотр документа, который будет записан.',
    cover: 'Титульный лист', 'f.title': 'Заголовок', 'f.customer': 'Заказчик', 'f.server': 'Сервер', 'f.author': 'Подготовил', 'f.date': 'Дата',
    'h.title': 'По умолчанию: «Пилотная проверка кэша хранилища».', 'h.server': 'По умолчанию: имя сервера из записи.',
    options: 'Документ', 'f.lang': 'Язык отчёта', 'f.format': 'Формат', 'f.paper': 'Размер бумаги', 'f.tco': 'Включить раздел TCO и ресурса дисков',
    'h.tco': 'Используется сценарий, заполненный по этому анализу (исходная точка Планировщика).',
    'fmt.pdf': 'PDF (для печати и отправки)', 'fmt.html': 'HTML (один автономный файл)', 'fmt.xlsx': 'Книга Excel (XLSX)', 'fmt.csv': 'CSV (итоги и данные по интервалам)',
    'paper.a4': 'A4', 'paper.letter': 'Letter (США)', start: 'Экспортировать', preview: 'Предпросмотр', previewLoading: 'Готовим предпросмотр…', progress: 'Ход экспорта',
    'stage.open': 'Открываем запись', 'stage.hash': 'Считаем отпечаток файла', 'stage.analyze': 'Анализируем', 'stage.model': 'Собираем отчёт',
    'stage.render': 'Рисуем графики', 'stage.print': 'Печатаем PDF', 'stage.write': 'Записываем файл', 'stage.done': 'Готово',
    saved: 'Сохранено: {files}.', download: 'Скачать {name} ещё раз',
  },
};
