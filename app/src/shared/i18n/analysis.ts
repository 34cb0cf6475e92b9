import type { Catalog } from './types.ts';

/** Strings of `cacheproof analyze`'s readable table (namespace `analysis`). */
export type AnalysisKey =
  | 'title' | 'mode.front-and-backing' | 'mode.backing-only' | 'capture' | 'host' | 'baseline' | 'measure' | 'warmup'
  | 'front' | 'backing' | 'figure' | 'before' | 'after' | 'change'
  | 'iosToBacking' | 'ioTime' | 'ioTimeSaved' | 'perWork' | 'iosSaved' | 'latency' | 'normalizedIops' | 'deliveredIops' | 'backingIops' | 'backingIopsPerSpindle' | 'iopsPerSpindle'
  | 'throughput' | 'totalWork' | 'cacheServedReads' | 'cacheServedWrites' | 'ci95' | 'na' | 'warnings' | 'none'
  | 'health' | 'meets' | 'breaks' | 'method' | 'predicted' | 'predictedBacking' | 'predictedResponse'
  | 'engineServed' | 'engineVsCounters' | 'engineKind.reads' | 'engineKind.writes' | 'engineKind.all';

export const analysis: Catalog<AnalysisKey> = {
  en: {
    title: 'CacheProof analysis', 'mode.front-and-backing': 'Mode: front and backing devices measured (exact attribution)',
    'mode.backing-only': 'Mode: backing device only (windows compared per second; the workload may have changed)',
    capture: 'Capture', host: 'Host', baseline: 'Baseline (cache off)', measure: 'Measure (cache on)', warmup: 'Warm-up excluded',
    front: 'Front device', backing: 'Backing devices', figure: 'Figure', before: 'Before', after: 'After', change: 'Change',
    ioTime: 'Backing I/O time per hour, s (measured)', ioTimeSaved: 'I/O time saved (estimate)', perWork: 'Disk I/Os per unit of work',
    iosToBacking: 'I/Os to the backing drives', iosSaved: 'I/Os saved', latency: 'Average response time (ms)',
    normalizedIops: 'IOPS at queue depth 1 (normalized, 1000 ÷ ms)', deliveredIops: 'Delivered IOPS (application)',
    backingIops: 'IOPS at the backing drives', backingIopsPerSpindle: 'Backing IOPS per spindle',
    iopsPerSpindle: 'Delivered IOPS per spindle', throughput: 'Throughput (MB/s, MB = 10^6 bytes)', totalWork: 'Total work (GB moved)',
    cacheServedReads: 'Reads served by the cache', cacheServedWrites: 'Writes served by the cache', ci95: '95% interval {low} – {high}',
    engineServed: 'Served by the cache, engine statistics ({kind})', engineVsCounters: 'disk counters {counters}, {diff} points', 'engineKind.reads': 'reads', 'engineKind.writes': 'writes', 'engineKind.all': 'all I/O',
    na: 'n/a', warnings: 'Warnings', none: 'none', health: 'Latency targets ({preset})', meets: 'meets', breaks: 'breaks',
    method: 'Figures over each window; 95% intervals by a seeded block bootstrap (seed {seed}, {replicates} replicates).',
    predicted: 'Predicted from the baseline’s block trace: {predicted} of I/Os saved with a {size} LRU cache ({reads} reads replayed); measured {measured}, predicted − measured {difference} points.',
    predictedBacking: 'Predicted backing I/O: {predicted} I/O per second; measured {measured}, predicted − measured {difference}.',
    predictedResponse: 'Predicted average response time: {predicted} ms (hits at {hit} µs); measured {measured} ms, predicted − measured {difference} ms.',
  },
  fr: {
    title: 'Analyse CacheProof', 'mode.front-and-backing': 'Mode : périphériques frontal et sous-jacent mesurés (attribution exacte)',
    'mode.backing-only': 'Mode : périphérique sous-jacent seul (fenêtres comparées par seconde ; la charge a pu changer)',
    capture: 'Capture', host: 'Hôte', baseline: 'Référence (cache désactivé)', measure: 'Mesure (cache activé)', warmup: 'Préchauffage exclu',
    front: 'Périphérique frontal', backing: 'Périphériques sous-jacents', figure: 'Indicateur', before: 'Avant', after: 'Après', change: 'Évolution',
    ioTime: 'Temps d’E/S sous-jacent par heure, s (mesuré)', ioTimeSaved: 'Temps d’E/S épargné (estimation)', perWork: 'E/S disque par unité de travail',
    iosToBacking: 'E/S vers les disques sous-jacents', iosSaved: 'E/S épargnées', latency: 'Temps de réponse moyen (ms)',
    normalizedIops: 'IOPS à profondeur de file 1 (normalisées, 1000 ÷ ms)', deliveredIops: 'IOPS délivrées (application)',
    backingIops: 'IOPS des disques sous-jacents', backingIopsPerSpindle: 'IOPS sous-jacentes par disque',
    iopsPerSpindle: 'IOPS délivrées par disque', throughput: 'Débit (Mo/s, Mo = 10^6 octets)', totalWork: 'Travail total (Go transférés)',
    cacheServedReads: 'Lectures servies par le cache', cacheServedWrites: 'Écritures servies par le cache', ci95: 'intervalle à 95 % {low} – {high}',
    engineServed: 'Servi par le cache, statistiques du moteur ({kind})', engineVsCounters: 'compteurs des disques {counters}, {diff} points', 'engineKind.reads': 'lectures', 'engineKind.writes': 'écritures', 'engineKind.all': 'toutes les E/S',
    na: 'n.d.', warnings: 'Avertissements', none: 'aucun', health: 'Objectifs de latence ({preset})', meets: 'respecté', breaks: 'dépassé',
    method: 'Indicateurs sur chaque fenêtre ; intervalles à 95 % par bootstrap par blocs à graine fixe (graine {seed}, {replicates} tirages).',
    predicted: 'Prédit à partir de la trace de blocs de la référence : {predicted} d’E/S épargnées avec un cache LRU de {size} ({reads} lectures rejouées) ; mesuré {measured}, prédit − mesuré {difference} points.',
    predictedBacking: 'E/S vers le stockage prédites : {predicted} E/S par seconde ; mesuré {measured}, prédit − mesuré {difference}.',
    predictedResponse: 'Temps de réponse moyen prédit : {predicted} ms (succès à {hit} µs) ; mesuré {measured} ms, prédit − mesuré {difference} ms.',
  },
  es: {
    title: 'Análisis de CacheProof', 'mode.front-and-backing': 'Modo: dispositivos frontal y de respaldo medidos (atribución exacta)',
    'mode.backing-only': 'Modo: solo dispositivo de respaldo (ventanas comparadas por segundo; la carga pudo cambiar)',
    capture: 'Captura', host: 'Servidor', baseline: 'Referencia (caché desactivada)', measure: 'Medida (caché activada)', warmup: 'Calentamiento excluido',
    front: 'Dispositivo frontal', backing: 'Dispositivos de respaldo', figure: 'Indicador', before: 'Antes', after: 'Después', change: 'Cambio',
    ioTime: 'Tiempo de E/S de respaldo por hora, s (medido)', ioTimeSaved: 'Tiempo de E/S ahorrado (estimación)', perWork: 'E/S de disco por unidad de trabajo',
    iosToBacking: 'E/S a los discos de respaldo', iosSaved: 'E/S ahorradas', latency: 'Tiempo medio de respuesta (ms)',
    normalizedIops: 'IOPS con profundidad de cola 1 (normalizadas, 1000 ÷ ms)', deliveredIops: 'IOPS entregadas (aplicación)',
    backingIops: 'IOPS de los discos de respaldo', backingIopsPerSpindle: 'IOPS de respaldo por disco',
    iopsPerSpindle: 'IOPS entregadas por disco', throughput: 'Rendimiento (MB/s, MB = 10^6 bytes)', totalWork: 'Trabajo total (GB transferidos)',
    cacheServedReads: 'Lecturas servidas por la caché', cacheServedWrites: 'Escrituras servidas por la caché', ci95: 'intervalo del 95 % {low} – {high}',
    engineServed: 'Servido por la caché, estadísticas del motor ({kind})', engineVsCounters: 'contadores de disco {counters}, {diff} puntos', 'engineKind.reads': 'lecturas', 'engineKind.writes': 'escrituras', 'engineKind.all': 'todas las E/S',
    na: 'n/d', warnings: 'Advertencias', none: 'ninguna', health: 'Objetivos de latencia ({preset})', meets: 'cumple', breaks: 'incumple',
    method: 'Indicadores por ventana; intervalos del 95 % por bootstrap por bloques con semilla fija (semilla {seed}, {replicates} réplicas).',
    predicted: 'Previsto a partir de la traza de bloques de la referencia: {predicted} de E/S ahorradas con una caché LRU de {size} ({reads} lecturas reproducidas); medido {measured}, previsto − medido {difference} puntos.',
    predictedBacking: 'E/S al respaldo previstas: {predicted} E/S por segundo; medido {measured}, previsto − medido {difference}.',
    predictedResponse: 'Tiempo de respuesta medio previsto: {predicted} ms (aciertos a {hit} µs); medido {measured} ms, previsto − medido {difference} ms.',
  },
  ru: {
    title: 'Анализ CacheProof', 'mode.front-and-backing': 'Режим: измерены фронтальное и базовое устройства (точное отнесение)',
    'mode.backing-only': 'Режим: только базовое устройство (окна сравниваются в расчёте на секунду; нагрузка могла измениться)',
    capture: 'Запись', host: 'Сервер', baseline: 'Базовое окно (кэш выключен)', measure: 'Измерение (кэш включён)', warmup: 'Исключённый прогрев',
    front: 'Фронтальное устройство', backing: 'Базовые устройства', figure: 'Показатель', before: 'До', after: 'После', change: 'Изменение',
    ioTime: 'Время ввода-вывода базовых дисков в час, с (измерено)', ioTimeSaved: 'Сэкономлено времени ввода-вывода (оценка)', perWork: 'Дисковых операций на единицу работы',
    iosToBacking: 'Операции ввода-вывода на базовые диски', iosSaved: 'Сэкономлено операций', latency: 'Среднее время отклика (мс)',
    normalizedIops: 'IOPS при глубине очереди 1 (нормализованные, 1000 ÷ мс)', deliveredIops: 'IOPS, выданные приложению',
    backingIops: 'IOPS базовых дисков', backingIopsPerSpindle: 'IOPS базовых дисков на один диск',
    iopsPerSpindle: 'IOPS на один диск', throughput: 'Пропускная способность (МБ/с, МБ = 10^6 байт)', totalWork: 'Всего работы (ГБ передано)',
    cacheServedReads: 'Чтения, обслуженные кэшем', cacheServedWrites: 'Записи, обслуженные кэшем', ci95: '95%-й интервал {low} – {high}',
    engineServed: 'Обслужено кэшем, по статистике кэша ({kind})', engineVsCounters: 'счётчики дисков {counters}, {diff} п. п.', 'engineKind.reads': 'чтения', 'engineKind.writes': 'записи', 'engineKind.all': 'все операции',
    na: 'н/д', warnings: 'Предупреждения', none: 'нет', health: 'Целевые задержки ({preset})', meets: 'выполняется', breaks: 'нарушается',
    method: 'Показатели по каждому окну; 95%-е интервалы — блочный бутстрап с фиксированным зерном (зерно {seed}, {replicates} повторов).',
    predicted: 'Прогноз по трассе блоков базового окна: {predicted} сэкономленных операций с LRU-кэшем {size} ({reads} воспроизведённых чтений); измерено {measured}, прогноз − измерение {difference} п. п.',
    predictedBacking: 'Прогноз операций к основным устройствам: {predicted} операций в секунду; измерено {measured}, прогноз − измерение {difference}.',
    predictedResponse: 'Прогноз среднего времени отклика: {predicted} мс (попадания — {hit} мкс); измерено {measured} мс, прогноз − измерение {difference} мс.',
  },
};
