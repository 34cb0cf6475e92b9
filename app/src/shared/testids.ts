/** data-testid values shared by the renderer and the end-to-end specs. */
export const TID = {
  appTitle: 'app-title',
  status: 'status',
  error: 'error',
  /** A bug in the window (an uncaught error or rejection), shown once with the internal-error sentence. */
  bug: 'bug',
  langSelect: 'lang-select',
  analysisName: 'analysis-name',
  modeBadge: 'mode-badge',
  cardIosSaved: 'card-ios-saved',
  cardLatency: 'card-latency',
  /** The figures behind the headline cards (IOPS at queue depth 1 with its definition); the row's value is `.value`. */
  dashFigureDetails: 'dash-figure-details',
  detailNormalizedIops: 'detail-normalized-iops',
  cardThroughput: 'card-throughput',
  cardCacheServed: 'card-cache-served',
  chartIops: 'chart-iops',
  chartSummary: 'chart-summary',
  warnings: 'warnings',
  /** The results dashboard's root; `data-drawn="true"` once every chart has drawn. Each chart box below holds its canvas; its text summary is `${id}-summary`. */
  dashboard: 'dashboard',
  /** The dashboard's drive-life section; each figure is a `[data-figure]` box with its value in `[data-value]`. */
  dashLife: 'dash-life',
  dashDecision: 'dash-decision',
  chartLatency: 'chart-latency',
  chartHourly: 'chart-hourly',
  chartDistribution: 'chart-distribution',
  chartFrontBacking: 'chart-front-backing',
  dashZoomIn: 'dash-zoom-in',
  dashZoomOut: 'dash-zoom-out',
  dashZoomReset: 'dash-zoom-reset',
  /** The visible time range of the two time charts, in words. */
  dashZoomRange: 'dash-zoom-range',
  dashHourlyMetric: 'dash-hourly-metric',
  dashHealth: 'dash-health',
  /** The prediction from the block trace (renderer/dashboard/prediction.ts), shown when the analysis has one. */
  dashPrediction: 'dash-prediction',
  /** Predicted beside measured I/Os saved: cells carry `data-value` (the engine's number). */
  dashPredictionCompare: 'dash-prediction-compare',
  /** The miss-ratio curve's chart box; its text summary is `${id}-summary`. */
  chartMrc: 'chart-mrc',
  /** Response time from the block trace: a table, rows carry data-device, data-window, data-op. */
  dashTraceLatency: 'dash-trace-latency',
  /** How the trace's percentiles were computed, in words (the section carries data-method). */
  dashTraceLatencyMethod: 'dash-trace-latency-method',
  /** The per-hour percentiles of the trace: chart box; its series select is `${id}-series`. */
  chartTraceLatencyHourly: 'chart-trace-latency-hourly',
  /** Said instead of that chart when the stored latency predates per-hour figures. */
  dashTraceLatencyNoHours: 'dash-trace-latency-no-hours',
  dashDrift: 'dash-drift',
  themeToggle: 'theme-toggle',
  version: 'app-version',
  navResults: 'nav-results',
  navPlanner: 'nav-planner',
  planner: 'planner',
  plannerError: 'planner-error',
  plannerExport: 'planner-export',
  plannerReset: 'planner-reset',
  /** The Planner's scenario file input (import) and the sentence of a refused file. */
  plannerImport: 'planner-import',
  plannerImportError: 'planner-import-error',
  plannerImportStatus: 'planner-import-status',
  /** The catalog picker: select, figures table (rows carry data-figure), add buttons. */
  plannerCatalog: 'planner-catalog',
  plannerCatalogFigures: 'planner-catalog-figures',
  plannerCatalogAdd: 'planner-catalog-add',
  plannerAddTypedDrive: 'planner-add-typed-drive',
  /** `${plannerRemoveDrive}-${drive id}`. */
  plannerRemoveDrive: 'planner-remove-drive',
  plannerAddConfig: 'planner-add-config',
  /** `${…}-${configuration id}`. */
  plannerDuplicateConfig: 'planner-duplicate-config',
  plannerRemoveConfig: 'planner-remove-config',
  plannerAddSsdCache: 'planner-add-ssd-cache',
  plannerAddRamCache: 'planner-add-ram-cache',
  plannerRemoveCache: 'planner-remove-cache',
  plannerChartTornado: 'planner-chart-tornado',
  plannerSummary: 'planner-summary',
  plannerVerdict: 'planner-verdict',
  plannerComparison: 'planner-comparison',
  /** One table per configuration: `${plannerLines}-${configuration id}`; rows carry data-line (the line-item id), `upfront`, `total`. */
  plannerLines: 'planner-lines',
  plannerChartCosts: 'planner-chart-costs',
  plannerChartCumulative: 'planner-chart-cumulative',
  plannerChartSpindles: 'planner-chart-spindles',
  /** The text summary under each planner chart: `${chart test id}-summary`. */
  plannerLife: 'planner-life',
  /** Live run screen (renderer/live/). The root carries `data-state` (RunStatus.state) and `data-phase`. */
  live: 'live',
  liveTitle: 'live-title',
  liveState: 'live-state',
  liveTimeline: 'live-timeline',
  /** The two progress rows; each holds a `<progress>` (value = percent) and a `.progress-text`. */
  liveProgressPhase: 'live-progress-phase',
  liveProgressTotal: 'live-progress-total',
  liveSamples: 'live-samples',
  liveSwitchCta: 'live-switch-cta',
  liveConfirmSwitch: 'live-confirm-switch',
  liveSwitchRecorded: 'live-switch-recorded',
  /** Chart boxes (each holds its canvas); the text summary is `${id}-summary`. */
  liveChartIops: 'live-chart-iops',
  liveChartMbps: 'live-chart-mbps',
  liveChartLatency: 'live-chart-latency',
  liveWindowLabel: 'live-window-label',
  liveWindowEarlier: 'live-window-earlier',
  liveWindowLater: 'live-window-later',
  liveWindowLive: 'live-window-live',
  liveWarnings: 'live-warnings',
  liveDetach: 'live-detach',
  liveStop: 'live-stop',
  liveStopDialog: 'live-stop-dialog',
  liveStopConfirm: 'live-stop-confirm',
  liveStopCancel: 'live-stop-cancel',
  liveDone: 'live-done',
  liveOpenResults: 'live-open-results',
  /** The panel shown when the run is stopped, failed, or its probe died: what happened and what to do next. */
  liveProblem: 'live-problem',
  liveResume: 'live-resume',
  liveOpenPartial: 'live-open-partial',
  liveError: 'live-error',
  /** In the Live screen's error when the run has no measure window: opens the baseline alone as a workload profile. */
  liveOpenProfile: 'live-open-profile',
  /** The workload profile screen (profile/): a run's baseline alone, no before/after. */
  profile: 'profile',
  profileBadge: 'profile-badge',
  /** The prediction on the workload profile (an imported block trace's): the section; its figures carry the dashboard's test ids. */
  profilePrediction: 'profile-prediction',
  /** The workload profile's health against the latency targets (`data-grade`). */
  profileHealth: 'profile-health',
  profileWarnings: 'profile-warnings',
  profileWindow: 'profile-window',
  profileCardIops: 'profile-card-iops',
  profileCardP95: 'profile-card-p95',
  profileCardMbps: 'profile-card-mbps',
  profileCardLatency: 'profile-card-latency',
  profileCardReadShare: 'profile-card-read-share',
  profileCardRequestSize: 'profile-card-request-size',
  profileTable: 'profile-table',
  profileError: 'profile-error',
  profileBack: 'profile-back',
  /** On the workload profile: opens the Planner prefilled from the profile (capacity planning without a cache). */
  profilePlan: 'profile-plan',
  /** The workload profile's time charts (profile/charts.ts): chart boxes, each with `${id}-export-png|svg|csv` and `${id}-summary`. */
  /** On the workload profile: opens its Export screen (`#/profile-export/<id>`: the workload-profile report). */
  profileExport: 'profile-export',
  profileChartIops: 'profile-chart-iops',
  profileChartMbps: 'profile-chart-mbps',
  profileChartLatency: 'profile-chart-latency',
  profileChartQueue: 'profile-chart-queue',
  /** The busiest hour's sentence (`data-start-ms`) and the hour × day IOPS table. */
  profileBusiest: 'profile-busiest',
  profileBusiestDevice: 'profile-busiest-device',
  profileUpperLayer: 'profile-upper-layer',
  profileSlicesSection: 'profile-slices-section',
  profileTitle: 'profile-title',
  profileSlices: 'profile-slices',
  profileAlerts: 'profile-alerts',
  profileHeatmap: 'profile-heatmap',
  /** The per-day tables (engine report/profile-days.ts; `data-table` the table's id). */
  profileDays: 'profile-days',
  /** Capacity per volume (`data-in-log`). */
  profileCapacity: 'profile-capacity',
  /** Home (home/) and the new-analysis wizard (wizard/). */
  navHome: 'nav-home',
  home: 'home',
  homeNew: 'home-new',
  homeSample: 'home-sample',
  homeActionsError: 'home-actions-error',
  homeOpenPath: 'home-open-path',
  homeOpenSubmit: 'home-open-submit',
  homeOpenError: 'home-open-error',
  homeRecent: 'home-recent',
  /** Import a log (renderer/import/). The preview box carries `data-ready` (the probe's `ready`). */
  homeImport: 'home-import',
  /** Home's Collect on another machine button, and that screen (collect/): its form, its commands, the script's download. */
  homeCollect: 'home-collect',
  collectScreen: 'collect-screen',
  collectOs: 'collect-os',
  collectInterval: 'collect-interval',
  collectMeasure: 'collect-measure',
  collectFolder: 'collect-folder',
  collectSteps: 'collect-steps',
  collectScript: 'collect-script',
  collectDownload: 'collect-download',
  collectProblems: 'collect-problems',
  importScreen: 'import',
  importKind: 'import-kind',
  importFiles: 'import-files',
  importAfter: 'import-after',
  importSwitchAt: 'import-switch-at',
  importPreviewBtn: 'import-preview-btn',
  importStart: 'import-start',
  importPreview: 'import-preview',
  /** The preview's device table: rows carry `data-device` and `data-role`, and `data-on` (what the device sits on) and `data-stack` (how that is known) when it sits on another. */
  importDevices: 'import-devices',
  importRange: 'import-range',
  importInterval: 'import-interval',
  importUtcOffset: 'import-utc-offset',
  importIntervalTyped: 'import-interval-typed',
  importStartTime: 'import-start-time',
  importCounters: 'import-counters',
  importRefusal: 'import-refusal',
  importNotes: 'import-notes',
  importProgress: 'import-progress',
  /** A block trace's import: the cache to predict (its fields' test ids are this with `-size`, `-unit`, `-device`), and the preview's facts (`data-key`, `data-value`). */
  importPredictChoice: 'import-predict-choice',
  importTraceStart: 'import-trace-start',
  importTraceFacts: 'import-trace-facts',
  importError: 'import-error',
  /** The Prometheus fields of Import a log (kind `prometheus`). */
  importPromUrl: 'import-prom-url',
  importPromHosts: 'import-prom-hosts',
  importPromFrom: 'import-prom-from',
  importPromTo: 'import-prom-to',
  importPromStep: 'import-prom-step',
  importPromPerHost: 'import-prom-per-host',
  importPromFleet: 'import-prom-fleet',
  /** How the fleet is read: every series pulled, or its figures computed by the server (`--fleet-summary`). */
  importPromPull: 'import-prom-pull',
  importPromSummary: 'import-prom-summary',
  /** The fleet view (renderer/fleet/): its table (rows carry data-host; figure cells data-before/data-after or data-value), a row's Open button. */
  fleet: 'fleet',
  fleetStatus: 'fleet-status',
  fleetTable: 'fleet-table',
  fleetOpen: 'fleet-open',
  fleetBack: 'fleet-back',
  /** The fleet as one load (a fleet with no switch): cards carry data-value (peak also data-start/data-end); its peak's hosts (li data-host, data-iops). */
  fleetAggregate: 'fleet-aggregate',
  /** The fleet's IOPS over time (a fleet with no switch): its chart box; the canvas carries data-points, data-max, data-peak ({x, y}) and data-refs (the p95); the box data-drawn once drawn. */
  fleetChart: 'fleet-chart',
  /** The fleet view's fleet report button (a fleet with no switch) and what it says while the export runs. */
  fleetReport: 'fleet-report',
  fleetReportStatus: 'fleet-report-status',
  homeRecentError: 'home-recent-error',
  /** The dashboard's per-device table (rows carry data-device and data-window). */
  dashDevices: 'dash-devices',
  /** Reads and writes per second over both windows (a time chart like chartIops; summary `${id}-summary`). */
  chartReadWrite: 'chart-read-write',
  /** The average queue size (aqu-sz) over both windows. */
  chartQueue: 'chart-queue',
  /** Reads/s, writes/s, read share and aqu-sz per group and window: rows carry data-group, data-window, data-figure; cells data-field mean, p95, peak. */
  dashReadWriteQueue: 'dash-read-write-queue',
  /** The request-size distribution (a bar chart; its canvas carries the drawn shares in data-values). */
  chartSizes: 'chart-request-sizes',
  /** The group and operation the request-size chart shows (`front:reads`, `backing:writes`, …). */
  dashSizesShow: 'dash-sizes-show',
  /** The progress line of a capture being opened (data-stage read or analyze) and its Stop button. */
  openProgress: 'open-progress',
  /** The screen of `#/results/<id>` whose analysis is not open in the window (reopen.ts). */
  reopen: 'reopen',
  openCancel: 'open-cancel',
  wizard: 'wizard',
  /** The step title; carries data-step (devices, engine, plan, review). */
  wizardStep: 'wizard-step',
  wizardNext: 'wizard-next',
  wizardBack: 'wizard-back',
  wizardNextWhy: 'wizard-next-why',
  wizStacks: 'wiz-stacks',
  wizDevices: 'wiz-devices',
  /** One row per device: `${wizDeviceRow}-${device name}`. */
  wizDeviceRow: 'wiz-device',
  wizFrontNone: 'wiz-front-none',
  wizAcceptRoles: 'wiz-accept-roles',
  wizRefresh: 'wiz-refresh',
  wizChosen: 'wiz-chosen',
  wizError: 'wiz-error',
  /** Duration inputs: `${wizDuration}-baseline|warmup|measure`, their unit selects with `-unit`. */
  wizDuration: 'wiz-duration',
  wizInterval: 'wiz-interval',
  wizTargets: 'wiz-targets',
  wizEstimate: 'wiz-estimate',
  wizTrace: 'wiz-trace',
  liveTrace: 'live-trace',
  wizTraceSize: 'wiz-trace-size',
  /** The trace's size budget per 24 h (a select; `every` keeps every request). */
  wizTraceBudget: 'wiz-trace-budget',
  wizTotal: 'wiz-total',
  wizSummary: 'wiz-summary',
  wizProblems: 'wiz-problems',
  wizName: 'wiz-name',
  /** The cache-engine step (wizard/engine.ts): the two ways, the detected engines (rows `${wizEngineRow}-${adapter}-${device}`), the choice, the dry run. */
  wizEngineManual: 'wiz-engine-manual',
  wizEngineAdapter: 'wiz-engine-adapter',
  wizEngines: 'wiz-engines',
  wizEngineRow: 'wiz-engine',
  wizEngineAdapterName: 'wiz-engine-adapter-name',
  wizEngineDevice: 'wiz-engine-device',
  wizEngineConfig: 'wiz-engine-config',
  wizEngineRestore: 'wiz-engine-restore',
  wizEngineSchedule: 'wiz-engine-schedule',
  wizEnginePlanButton: 'wiz-engine-plan-button',
  wizEnginePlan: 'wiz-engine-plan',
  wizEnginePlanMode: 'wiz-engine-plan-mode',
  wizEngineError: 'wiz-engine-error',
  /** The Live screen's engine line and its last action. */
  liveEngine: 'live-engine',
  liveEngineAction: 'live-engine-action',
  /** The dashboard's engine statistics (dashboard/engine.ts): the card, the shares table, the counters and actions tables. */
  cardEngineStats: 'card-engine-stats',
  dashEngine: 'dash-engine',
  dashEngineShares: 'dash-engine-shares',
  dashEngineCounters: 'dash-engine-counters',
  dashEngineActions: 'dash-engine-actions',
  navExport: 'nav-export',
  export: 'export',
  /** The preview iframe (sandboxed, no scripts). */
  exportPreview: 'export-preview',
  /** Cover inputs: `${exportCover}-title|customer|server|author|date`. */
  exportCover: 'export-cover',
  exportLang: 'export-lang',
  exportFormat: 'export-format',
  exportPaper: 'export-paper',
  exportForm: 'export-form',
  /** The wizard's custom latency targets: the fieldset; its inputs `${wizCustomTargets}-read|write|warn`. */
  wizCustomTargets: 'wiz-custom-targets',
  exportTco: 'export-tco',
  exportTcoHint: 'export-tco-hint',
  exportStart: 'export-start',
  exportProgress: 'export-progress',
  exportStage: 'export-stage',
  /** Links to the exported files (data-name carries the file name). */
  exportDownload: 'export-download',
  exportError: 'export-error',
  /** The cache to predict (renderer/predict/fields.ts): its inputs `${id}-size|unit|device|latency`, `${id}` a prefix per screen. */
  dashPredictChoice: 'dash-predict-choice',
  wizPredictChoice: 'wiz-predict-choice',
  /** The wizard's "Predict a cache from the baseline's trace" box. */
  wizPredict: 'wiz-predict',
  /** The dashboard's "Predict another cache": the form, its button, progress and error. */
  dashPredictRun: 'dash-predict-run',
  dashPredictButton: 'dash-predict-button',
  dashPredictProgress: 'dash-predict-progress',
  dashPredictError: 'dash-predict-error',
  /** Predicted beside measured backing I/O and response time (cards `data-kind` predicted|measured|difference). */
  dashBackingCompare: 'dash-backing-compare',
  dashResponseCompare: 'dash-response-compare',
  /** The typed share's size answer (`${dashSavedAnswer}-input`, the line `${dashSavedAnswer}-line`). */
  dashSavedAnswer: 'dash-saved-answer',
  /**
   * The size slider over the stored curves (renderer/dashboard/prediction-slider.ts): the range `${id}-size`, its value
   * `${id}-value` (data-bytes), cards `data-kind` saved|readHit|backing|resp with `data-value` and `data-error`, the method `${id}-method`.
   */
  dashWhatIf: 'dash-what-if',
  /** The cache device's line (its figure and source). */
  dashCacheDevice: 'dash-cache-device',
  /** The Live screen's prediction line (`data-state` waiting|running|done|failed). */
  livePrediction: 'live-prediction',
  /** The Planner's "use the predicted read hit share" button of a cache configuration. */
  plannerUsePredicted: 'planner-use-predicted',
} as const;
