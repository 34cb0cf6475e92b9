/**
 * Analysis warnings in every language, by code (namespace `warnings`). The engine writes an
 * English `message` and machine-readable `params` for each warning (docs/metrics.md § Warnings);
 * the JSON output keeps the English message, people see {@link warningText}'s sentence.
 */
import type { WarningCode } from '@cacheproof/engine';
import type { Lang } from './types.ts';
import { numberFormat } from './numbers.ts';

/** Words that appear as values of `params` (window names, drift metrics, I/O kinds). */
type WordKey =
  | 'window.baseline' | 'window.measure'
  | 'metric.iops' | 'metric.readSharePercent' | 'metric.meanRequestBytes' | 'metric.bytesPerSec'
  | 'kind.reads' | 'kind.writes' | 'kind.all';

/** One sentence per warning code and language. `{name}` is filled from the warning's params. */
export const warningCatalog: Record<Lang, Record<WarningCode, string>> = {
  en: {
    'backing-only-mode': 'Only backing devices were measured, so the windows are compared per second and the workload may have changed between them.',
    'workload-drift': 'The workload’s {metric} changed by {changePercent}% between the windows, more than the {thresholdPercent}% threshold.',
    'unequal-windows': 'The windows differ in length by more than 10% (baseline {baselineSeconds} s, measure {measureSeconds} s); figures are compared per second or per I/O, never as raw totals.',
    'short-window': 'A window is shorter than 24 hours (baseline {baselineSeconds} s, measure {measureSeconds} s), so it may not see the whole daily cycle of load.',
    'interval-reset': 'Device {device} has {count} interval(s) after a counter reset in the {window}; they carry no numbers and are left out.',
    'interval-wrap': 'Device {device} has {count} interval(s) with a counter wrap in the {window}; they carry no numbers and are left out.',
    'interval-gap': 'Device {device} has {count} interval(s) spanning a recording gap in the {window}; they carry no numbers and are left out.',
    'interval-clock-jump': 'Device {device} has {count} interval(s) with a wall-clock jump in the {window}; they carry no numbers and are left out.',
    'interval-incomplete': 'Device {device} has {count} interval(s) with missing counters in the {window}; they are left out.',
    'low-coverage': 'Device {device} has data for only {coveragePercent}% of the {window}.',
    'negative-ios-saved': 'The backing devices carried more I/O per unit of work after the switch than before ({value}% saved).',
    'negative-cache-served': 'The backing devices completed more {kind} than the front device in the measure window ({value}% served by the cache): write-backs, metadata or split requests.',
    'front-named-backing': 'Device {device} was recorded as the front device, but you named it a backing device, so it is analyzed as backing.',
    'backing-named-front': 'Device {device} was recorded as a backing device, but you named it the front device, so it is analyzed as front.',
    'engine-counters-differ': 'The cache engine reports {enginePercent}% of {kind} served from its cache in the measure window, but the front and backing counters show {countersPercent}% ({differencePoints} points apart, more than {thresholdPoints}): engines count partial hits, bypassed I/O and write-through writes differently (see the engine statistics).',
    reset: 'Disk counters restarted (reboot or device re-created); that interval has no rates.',
    wrap: 'A disk counter went backwards without a reboot (counter wrap); that interval has no rates.',
    'clock-jump': 'The wall clock jumped during recording; that interval is not trusted.',
    gap: 'The recorder was not running for a while; the interval spanning the hole has no rates.',
    'device-appeared': 'The device appeared during recording.',
    'device-vanished': 'The device disappeared during recording.',
    'disk-full': 'The recording stopped because the disk is full: {detail}',
    resumed: 'The recording was interrupted and then resumed.',
    'early-switch': 'The switch was marked before the planned end of the baseline; the baseline ends at the mark.',
    error: 'The recording stopped on an error: {detail}',
    'trace-lost': 'The block trace is incomplete: the kernel’s trace buffer overflowed and dropped events. The disk counters are not affected.',
    'trace-unparsed': 'Some block trace lines were not understood and were skipped. The disk counters are not affected.',
    'trace-error': 'Block tracing stopped early; the disk counters went on.',
    'switch-failed': 'The cache engine could not be switched at the planned moment; the run went on with the engine in the state it was really in (the capture’s engine actions say which).',
    'switch-interrupted': 'The recorder was stopped while switching the cache engine; after the resume it was not switched again, and the run went on in the engine’s real state.',
    'restore-failed': 'The cache engine could not be put back in its original mode at the end of the run; check its mode before using the system.',
    'engine-stats': 'The cache engine’s own counters could not be read; the disk counters are not affected.',
    'prediction-unreadable': 'The stored prediction from the block trace could not be read; the analysis shows the measurement without it. Run the prediction again.',
    'trace-latency-unreadable': 'The stored response times from the block trace could not be read; the analysis shows the per-interval figures without them. Run cacheproof-probe latency --store again.',
    'index-failed': 'The columnar blocks of the interval table could not be written when the recording ended: the capture is complete but opens more slowly. Run “cacheproof-probe index CAPTURE” to write them.',
    'trace-cleanup': 'A kernel trace instance left by an earlier recorder was removed, or this recorder’s own could not be removed.',
    'trace-no-requests': 'This device is not traced request by request (a partition, or a device without a request queue); its block trace stays empty.',
    'very-short-window': 'A window is shorter than an hour (baseline {baselineSeconds} s, measure {measureSeconds} s): no figure of it represents an hour, let alone a day.',
    'short-log': 'The profiled data covers {seconds} s, less than 24 hours: daily figures (the busiest hour, the 95th percentile over the day, daily totals) do not represent a day.',
    'very-short-log': 'The profiled data covers only {seconds} s, less than an hour: no figure of it represents an hour, let alone a day (the busiest hour, the 95th percentile over the day, daily totals). Collect 24 hours to 7 days.',
    'capacity-short-fit': 'The log states {volume} over only {fitHours} h (less than 24 hours): its growth per day and days to full are withheld, since so short a span is no trend. Collect at least a day.',
    'prediction-few-requests': 'The prediction is made from only {requests} requests (fewer than {minimumRequests}): its hit ratio and I/Os saved are rough estimates.',
    'implausible-iops': '{devices}: {count} interval(s) reach {iops} IOPS, more than 10 times the fastest drive of the catalog ({drive}, {driveIops} IOPS). No device does that: the source’s times or counts are wrong, and these rates are not real.',
    'implausible-mbps': '{devices}: {count} interval(s) reach {mbps} MB/s, more than 10 times the fastest sequential read of the catalog ({drive}, {driveMBps} MB/s). No device does that: the source’s times or byte counts are wrong, and these rates are not real.',
    'trace-times-collapsed': 'The {requests} traced requests of {device} were issued within {spanMs} ms: {iops} IOPS ({mbPerSec} MB/s), more than 10 times the fastest drive of the catalog ({drive}, {driveIops} IOPS). The trace’s times collapsed (read in the wrong unit?), so its per-second rates are not real.',
    'busiest-hour-partial': 'The busiest hour is built from {coveredMinutes} minutes of data, not a whole hour: it is a partial hour.',
    'peak-at-range-end': 'The highest I/O rate ({iops} IOPS) is in the last interval of the data, ending {end}: the peak may have gone on after the data stops.',
  },
  fr: {
    'backing-only-mode': 'Seuls les périphériques sous-jacents ont été mesurés : les fenêtres sont comparées par seconde et la charge a pu changer entre elles.',
    'workload-drift': 'La charge ({metric}) a varié de {changePercent} % entre les fenêtres, au-delà du seuil de {thresholdPercent} %.',
    'unequal-windows': 'Les fenêtres diffèrent de plus de 10 % en durée (référence {baselineSeconds} s, mesure {measureSeconds} s) ; les indicateurs sont comparés par seconde ou par E/S, jamais en totaux bruts.',
    'short-window': 'Une fenêtre dure moins de 24 heures (référence {baselineSeconds} s, mesure {measureSeconds} s) : elle peut ne pas couvrir tout le cycle quotidien de charge.',
    'interval-reset': 'Le périphérique {device} a {count} intervalle(s) après une remise à zéro des compteurs dans la {window} ; sans valeurs, ils sont écartés.',
    'interval-wrap': 'Le périphérique {device} a {count} intervalle(s) avec un débordement de compteur dans la {window} ; sans valeurs, ils sont écartés.',
    'interval-gap': 'Le périphérique {device} a {count} intervalle(s) couvrant une interruption de l’enregistrement dans la {window} ; sans valeurs, ils sont écartés.',
    'interval-clock-jump': 'Le périphérique {device} a {count} intervalle(s) avec un saut d’horloge dans la {window} ; sans valeurs, ils sont écartés.',
    'interval-incomplete': 'Le périphérique {device} a {count} intervalle(s) aux compteurs manquants dans la {window} ; ils sont écartés.',
    'low-coverage': 'Le périphérique {device} n’a des données que pour {coveragePercent} % de la {window}.',
    'negative-ios-saved': 'Les périphériques sous-jacents ont traité plus d’E/S par unité de travail après la bascule qu’avant ({value} % épargnées).',
    'negative-cache-served': 'Les périphériques sous-jacents ont effectué plus de {kind} que le périphérique frontal dans la fenêtre de mesure ({value} % servies par le cache) : réécritures différées, métadonnées ou requêtes découpées.',
    'front-named-backing': 'Le périphérique {device} a été enregistré comme frontal, mais vous l’avez désigné comme périphérique sous-jacent : il est analysé comme sous-jacent.',
    'backing-named-front': 'Le périphérique {device} a été enregistré comme périphérique sous-jacent, mais vous l’avez désigné comme frontal : il est analysé comme frontal.',
    'engine-counters-differ': 'Le moteur de cache indique {enginePercent} % des {kind} servies par son cache dans la fenêtre de mesure, mais les compteurs frontal et sous-jacents montrent {countersPercent} % ({differencePoints} points d’écart, plus de {thresholdPoints}) : les moteurs comptent différemment les succès partiels, les E/S contournées et les écritures en écriture immédiate (voir les statistiques du moteur).',
    reset: 'Les compteurs disque ont redémarré (redémarrage ou périphérique recréé) ; cet intervalle n’a pas de débits.',
    wrap: 'Un compteur disque a reculé sans redémarrage (débordement) ; cet intervalle n’a pas de débits.',
    'clock-jump': 'L’horloge murale a sauté pendant l’enregistrement ; cet intervalle n’est pas fiable.',
    gap: 'L’enregistreur s’est interrompu un moment ; l’intervalle qui couvre le trou n’a pas de débits.',
    'device-appeared': 'Le périphérique est apparu pendant l’enregistrement.',
    'device-vanished': 'Le périphérique a disparu pendant l’enregistrement.',
    'disk-full': 'L’enregistrement s’est arrêté car le disque est plein : {detail}',
    resumed: 'L’enregistrement a été interrompu puis repris.',
    'early-switch': 'La bascule a été marquée avant la fin prévue de la référence ; la référence s’arrête à la marque.',
    error: 'L’enregistrement s’est arrêté sur une erreur : {detail}',
    'trace-lost': 'La trace de blocs est incomplète : la mémoire de trace du noyau a débordé et des événements ont été perdus. Les compteurs des disques ne sont pas concernés.',
    'trace-unparsed': 'Des lignes de la trace de blocs n’ont pas été comprises et ont été ignorées. Les compteurs des disques ne sont pas concernés.',
    'trace-error': 'La trace de blocs s’est arrêtée avant la fin ; les compteurs des disques ont continué.',
    'switch-failed': 'Le moteur de cache n’a pas pu être basculé au moment prévu ; la mesure a continué avec le moteur dans son état réel (les actions du moteur enregistrées dans la capture le disent).',
    'switch-interrupted': 'L’enregistreur a été arrêté pendant la bascule du moteur de cache ; après la reprise, il n’a pas basculé une seconde fois et la mesure a continué dans l’état réel du moteur.',
    'restore-failed': 'Le moteur de cache n’a pas pu être remis dans son mode d’origine en fin de mesure ; vérifiez son mode avant d’utiliser le système.',
    'engine-stats': 'Les compteurs propres du moteur de cache n’ont pas pu être lus ; les compteurs des disques ne sont pas concernés.',
    'prediction-unreadable': 'La prédiction enregistrée à partir de la trace de blocs n’a pas pu être lue ; l’analyse montre la mesure sans elle. Relancez la prédiction.',
    'trace-latency-unreadable': 'Les temps de réponse enregistrés à partir de la trace de blocs n’ont pas pu être lus ; l’analyse montre les chiffres par intervalle sans eux. Relancez cacheproof-probe latency --store.',
    'index-failed': 'Les blocs en colonnes de la table des intervalles n’ont pas pu être écrits à la fin de l’enregistrement : la capture est complète mais s’ouvre plus lentement. Lancez « cacheproof-probe index CAPTURE » pour les écrire.',
    'trace-cleanup': 'Une instance de trace du noyau laissée par un enregistreur précédent a été supprimée, ou celle de cet enregistreur n’a pas pu l’être.',
    'trace-no-requests': 'Ce périphérique n’est pas tracé requête par requête (une partition, ou un périphérique sans file de requêtes) ; sa trace de blocs reste vide.',
    'very-short-window': 'Une fenêtre dure moins d’une heure (référence {baselineSeconds} s, mesure {measureSeconds} s) : aucun de ses indicateurs ne représente une heure, encore moins une journée.',
    'short-log': 'Les données profilées couvrent {seconds} s, moins de 24 heures : les indicateurs journaliers (heure la plus chargée, 95e centile sur la journée, totaux journaliers) ne représentent pas une journée.',
    'very-short-log': 'Les données profilées ne couvrent que {seconds} s, moins d’une heure : aucun indicateur ne représente une heure, encore moins une journée (heure la plus chargée, 95e centile sur la journée, totaux journaliers). Collectez de 24 heures à 7 jours.',
    'capacity-short-fit': 'Le journal ne décrit {volume} que sur {fitHours} h (moins de 24 heures) : sa croissance par jour et le nombre de jours avant saturation ne sont pas donnés, une durée si courte n’étant pas une tendance. Collectez au moins une journée.',
    'prediction-few-requests': 'La prédiction repose sur seulement {requests} requêtes (moins de {minimumRequests}) : son taux de succès et ses E/S épargnées sont des estimations grossières.',
    'implausible-iops': '{devices} : {count} intervalle(s) atteignent {iops} E/S par seconde, plus de 10 fois le disque le plus rapide du catalogue ({drive}, {driveIops} E/S par seconde). Aucun périphérique n’en est capable : les temps ou les comptes de la source sont faux, et ces débits ne sont pas réels.',
    'implausible-mbps': '{devices} : {count} intervalle(s) atteignent {mbps} Mo/s, plus de 10 fois la lecture séquentielle la plus rapide du catalogue ({drive}, {driveMBps} Mo/s). Aucun périphérique n’en est capable : les temps ou les octets comptés par la source sont faux, et ces débits ne sont pas réels.',
    'trace-times-collapsed': 'Les {requests} requêtes tracées de {device} ont été émises en {spanMs} ms : {iops} E/S par seconde ({mbPerSec} Mo/s), plus de 10 fois le disque le plus rapide du catalogue ({drive}, {driveIops} E/S par seconde). Les temps de la trace se sont effondrés (lus dans la mauvaise unité ?) : ses débits par seconde ne sont pas réels.',
    'busiest-hour-partial': 'L’heure la plus chargée repose sur {coveredMinutes} minutes de données, pas une heure entière : c’est une heure partielle.',
    'peak-at-range-end': 'Le débit d’E/S le plus élevé ({iops} E/S par seconde) est dans le dernier intervalle des données, qui finit à {end} : le pic a pu se prolonger après la fin des données.',
  },
  es: {
    'backing-only-mode': 'Solo se midieron los dispositivos de respaldo: las ventanas se comparan por segundo y la carga pudo cambiar entre ellas.',
    'workload-drift': 'La carga ({metric}) cambió un {changePercent} % entre las ventanas, más que el umbral del {thresholdPercent} %.',
    'unequal-windows': 'Las ventanas difieren en duración más de un 10 % (referencia {baselineSeconds} s, medida {measureSeconds} s); los indicadores se comparan por segundo o por E/S, nunca como totales brutos.',
    'short-window': 'Una ventana dura menos de 24 horas (referencia {baselineSeconds} s, medida {measureSeconds} s), así que puede no abarcar todo el ciclo diario de carga.',
    'interval-reset': 'El dispositivo {device} tiene {count} intervalo(s) tras un reinicio de contadores en la {window}; no tienen valores y se excluyen.',
    'interval-wrap': 'El dispositivo {device} tiene {count} intervalo(s) con desbordamiento de contador en la {window}; no tienen valores y se excluyen.',
    'interval-gap': 'El dispositivo {device} tiene {count} intervalo(s) que abarcan una interrupción de la grabación en la {window}; no tienen valores y se excluyen.',
    'interval-clock-jump': 'El dispositivo {device} tiene {count} intervalo(s) con un salto del reloj en la {window}; no tienen valores y se excluyen.',
    'interval-incomplete': 'El dispositivo {device} tiene {count} intervalo(s) con contadores ausentes en la {window}; se excluyen.',
    'low-coverage': 'El dispositivo {device} solo tiene datos del {coveragePercent} % de la {window}.',
    'negative-ios-saved': 'Los dispositivos de respaldo soportaron más E/S por unidad de trabajo después del cambio que antes ({value} % ahorrado).',
    'negative-cache-served': 'Los dispositivos de respaldo completaron más {kind} que el dispositivo frontal en la ventana de medida ({value} % servido por la caché): escrituras diferidas, metadatos o peticiones divididas.',
    'front-named-backing': 'El dispositivo {device} se grabó como dispositivo frontal, pero usted lo indicó como dispositivo de respaldo, así que se analiza como respaldo.',
    'backing-named-front': 'El dispositivo {device} se grabó como dispositivo de respaldo, pero usted lo indicó como dispositivo frontal, así que se analiza como frontal.',
    'engine-counters-differ': 'El motor de caché indica que su caché sirvió el {enginePercent} % de las {kind} en la ventana de medida, pero los contadores frontal y de respaldo muestran {countersPercent} % ({differencePoints} puntos de diferencia, más de {thresholdPoints}): los motores cuentan de otra forma los aciertos parciales, las E/S desviadas y las escrituras en modo write-through (vea las estadísticas del motor).',
    reset: 'Los contadores de disco se reiniciaron (reinicio del sistema o dispositivo recreado); ese intervalo no tiene tasas.',
    wrap: 'Un contador de disco retrocedió sin reinicio (desbordamiento); ese intervalo no tiene tasas.',
    'clock-jump': 'El reloj del sistema saltó durante la grabación; ese intervalo no es fiable.',
    gap: 'El grabador estuvo detenido un tiempo; el intervalo que abarca el hueco no tiene tasas.',
    'device-appeared': 'El dispositivo apareció durante la grabación.',
    'device-vanished': 'El dispositivo desapareció durante la grabación.',
    'disk-full': 'La grabación se detuvo porque el disco está lleno: {detail}',
    resumed: 'La grabación se interrumpió y luego se reanudó.',
    'early-switch': 'El cambio se marcó antes del final previsto de la referencia; la referencia termina en la marca.',
    error: 'La grabación se detuvo por un error: {detail}',
    'trace-lost': 'La traza de bloques está incompleta: el búfer de traza del núcleo se desbordó y se perdieron eventos. Los contadores de disco no se ven afectados.',
    'trace-unparsed': 'Algunas líneas de la traza de bloques no se entendieron y se omitieron. Los contadores de disco no se ven afectados.',
    'trace-error': 'La traza de bloques se detuvo antes de tiempo; los contadores de disco continuaron.',
    'switch-failed': 'No se pudo conmutar el motor de caché en el momento previsto; la medición siguió con el motor en su estado real (las acciones del motor registradas en la captura lo indican).',
    'switch-interrupted': 'El registrador se detuvo mientras conmutaba el motor de caché; tras reanudar no se conmutó de nuevo y la medición siguió en el estado real del motor.',
    'restore-failed': 'No se pudo devolver el motor de caché a su modo original al final de la medición; compruebe su modo antes de usar el sistema.',
    'engine-stats': 'No se pudieron leer los contadores propios del motor de caché; los contadores de disco no se ven afectados.',
    'prediction-unreadable': 'No se pudo leer la predicción guardada a partir de la traza de bloques; el análisis muestra la medición sin ella. Vuelva a ejecutar la predicción.',
    'trace-latency-unreadable': 'No se pudieron leer los tiempos de respuesta guardados a partir de la traza de bloques; el análisis muestra las cifras por intervalo sin ellos. Vuelva a ejecutar cacheproof-probe latency --store.',
    'index-failed': 'No se pudieron escribir los bloques en columnas de la tabla de intervalos al terminar la grabación: la captura está completa pero se abre más despacio. Ejecute «cacheproof-probe index CAPTURE» para escribirlos.',
    'trace-cleanup': 'Se eliminó una instancia de traza del núcleo dejada por una grabación anterior, o no se pudo eliminar la de esta grabación.',
    'trace-no-requests': 'Este dispositivo no se traza petición por petición (una partición, o un dispositivo sin cola de peticiones); su traza de bloques queda vacía.',
    'very-short-window': 'Una ventana dura menos de una hora (referencia {baselineSeconds} s, medida {measureSeconds} s): ninguna de sus cifras representa una hora, y menos un día.',
    'short-log': 'Los datos perfilados abarcan {seconds} s, menos de 24 horas: las cifras diarias (la hora de más carga, el percentil 95 del día, los totales diarios) no representan un día.',
    'very-short-log': 'Los datos perfilados abarcan solo {seconds} s, menos de una hora: ninguna cifra representa una hora, y menos un día (la hora de más carga, el percentil 95 del día, los totales diarios). Recoja de 24 horas a 7 días.',
    'capacity-short-fit': 'El registro describe {volume} durante solo {fitHours} h (menos de 24 horas): su crecimiento por día y los días hasta llenarse no se dan, porque un intervalo tan corto no es una tendencia. Recoja al menos un día.',
    'prediction-few-requests': 'La predicción se basa en solo {requests} peticiones (menos de {minimumRequests}): su tasa de aciertos y las E/S ahorradas son estimaciones aproximadas.',
    'implausible-iops': '{devices}: {count} intervalo(s) alcanzan {iops} IOPS, más de 10 veces el disco más rápido del catálogo ({drive}, {driveIops} IOPS). Ningún dispositivo hace eso: los tiempos o los recuentos de la fuente son erróneos y estas tasas no son reales.',
    'implausible-mbps': '{devices}: {count} intervalo(s) alcanzan {mbps} MB/s, más de 10 veces la lectura secuencial más rápida del catálogo ({drive}, {driveMBps} MB/s). Ningún dispositivo hace eso: los tiempos o los bytes contados por la fuente son erróneos y estas tasas no son reales.',
    'trace-times-collapsed': 'Las {requests} peticiones trazadas de {device} se emitieron en {spanMs} ms: {iops} IOPS ({mbPerSec} MB/s), más de 10 veces el disco más rápido del catálogo ({drive}, {driveIops} IOPS). Los tiempos de la traza se colapsaron (¿leídos en la unidad equivocada?), así que sus tasas por segundo no son reales.',
    'busiest-hour-partial': 'La hora de más carga se basa en {coveredMinutes} minutos de datos, no en una hora entera: es una hora parcial.',
    'peak-at-range-end': 'La tasa de E/S más alta ({iops} IOPS) está en el último intervalo de los datos, que termina a las {end}: el pico pudo continuar después del final de los datos.',
  },
  ru: {
    'backing-only-mode': 'Измерены только базовые устройства, поэтому окна сравниваются в расчёте на секунду, а нагрузка между ними могла измениться.',
    'workload-drift': 'Показатель нагрузки «{metric}» изменился между окнами на {changePercent} %, больше порога {thresholdPercent} %.',
    'unequal-windows': 'Длительности окон различаются более чем на 10 % (базовое {baselineSeconds} с, измерение {measureSeconds} с); показатели сравниваются в расчёте на секунду или на операцию, а не по итоговым суммам.',
    'short-window': 'Окно короче 24 часов (базовое {baselineSeconds} с, измерение {measureSeconds} с), поэтому оно может не охватывать весь суточный цикл нагрузки.',
    'interval-reset': 'У устройства {device} интервалов после сброса счётчиков в окне «{window}»: {count}; они не содержат данных и исключены.',
    'interval-wrap': 'У устройства {device} интервалов с переполнением счётчика в окне «{window}»: {count}; они не содержат данных и исключены.',
    'interval-gap': 'У устройства {device} интервалов, охватывающих перерыв записи, в окне «{window}»: {count}; они не содержат данных и исключены.',
    'interval-clock-jump': 'У устройства {device} интервалов со скачком системных часов в окне «{window}»: {count}; они не содержат данных и исключены.',
    'interval-incomplete': 'У устройства {device} интервалов с отсутствующими счётчиками в окне «{window}»: {count}; они исключены.',
    'low-coverage': 'У устройства {device} есть данные только за {coveragePercent} % окна «{window}».',
    'negative-ios-saved': 'После переключения базовые устройства выполнили больше операций ввода-вывода на единицу работы, чем до него (сэкономлено {value} %).',
    'negative-cache-served': 'В окне измерения базовые устройства выполнили больше операций ({kind}), чем фронтальное ({value} % обслужено кэшем): отложенная запись, метаданные или разбиение запросов.',
    'front-named-backing': 'Устройство {device} было записано как фронтальное, но вы указали его как базовое, поэтому оно анализируется как базовое.',
    'backing-named-front': 'Устройство {device} было записано как базовое, но вы указали его как фронтальное, поэтому оно анализируется как фронтальное.',
    'engine-counters-differ': 'По данным кэша, в окне измерения он обслужил {enginePercent} % операций ({kind}), а счётчики фронтального и базовых устройств показывают {countersPercent} % (разница {differencePoints} п. п., больше {thresholdPoints}): кэши по-разному учитывают частичные попадания, обходной ввод-вывод и сквозную запись (см. статистику кэша).',
    reset: 'Счётчики дисков обнулились (перезагрузка или пересоздание устройства); для этого интервала нет скоростей.',
    wrap: 'Счётчик диска уменьшился без перезагрузки (переполнение); для этого интервала нет скоростей.',
    'clock-jump': 'Системные часы скачком изменились во время записи; этому интервалу нельзя доверять.',
    gap: 'Запись на время прерывалась; для интервала, охватывающего перерыв, нет скоростей.',
    'device-appeared': 'Устройство появилось во время записи.',
    'device-vanished': 'Устройство исчезло во время записи.',
    'disk-full': 'Запись остановлена: диск заполнен: {detail}',
    resumed: 'Запись прерывалась и была возобновлена.',
    'early-switch': 'Переключение отмечено раньше запланированного конца базового окна; базовое окно заканчивается на отметке.',
    error: 'Запись остановлена из-за ошибки: {detail}',
    'trace-lost': 'Трассировка блоков неполная: буфер трассировки ядра переполнился, и часть событий потеряна. Счётчики дисков не затронуты.',
    'trace-unparsed': 'Некоторые строки трассировки блоков не распознаны и пропущены. Счётчики дисков не затронуты.',
    'trace-error': 'Трассировка блоков остановилась раньше времени; счётчики дисков продолжали записываться.',
    'switch-failed': 'Не удалось переключить кэш в запланированный момент; запись продолжилась с кэшем в его фактическом состоянии (действия с кэшем записаны в захвате).',
    'switch-interrupted': 'Регистратор был остановлен во время переключения кэша; после возобновления повторного переключения не было, запись продолжилась в фактическом состоянии кэша.',
    'restore-failed': 'Не удалось вернуть кэш в исходный режим в конце записи; проверьте его режим перед работой с системой.',
    'engine-stats': 'Не удалось прочитать собственные счётчики кэша; счётчики дисков не затронуты.',
    'prediction-unreadable': 'Не удалось прочитать сохранённый прогноз по трассе блоков; анализ показывает измерение без него. Запустите прогноз ещё раз.',
    'trace-latency-unreadable': 'Не удалось прочитать сохранённые времена отклика по трассе блоков; анализ показывает показатели по интервалам без них. Запустите cacheproof-probe latency --store ещё раз.',
    'index-failed': 'Не удалось записать столбцовые блоки таблицы интервалов в конце записи: захват полон, но открывается медленнее. Запустите «cacheproof-probe index CAPTURE», чтобы записать их.',
    'trace-cleanup': 'Удалён экземпляр трассировки ядра, оставленный прежним регистратором, или экземпляр этого регистратора не удалось удалить.',
    'trace-no-requests': 'Это устройство не трассируется по запросам (раздел или устройство без очереди запросов); его трассировка блоков остаётся пустой.',
    'very-short-window': 'Окно короче часа (базовое {baselineSeconds} с, измерение {measureSeconds} с): ни один его показатель не представляет час, тем более сутки.',
    'short-log': 'Данные профиля охватывают {seconds} с, меньше 24 часов: суточные показатели (самый нагруженный час, 95-й процентиль за сутки, суточные итоги) не представляют сутки.',
    'very-short-log': 'Данные профиля охватывают всего {seconds} с, меньше часа: ни один показатель не представляет час, тем более сутки (самый нагруженный час, 95-й процентиль за сутки, суточные итоги). Собирайте данные от 24 часов до 7 дней.',
    'capacity-short-fit': 'Журнал описывает том {volume} всего за {fitHours} ч (меньше 24 часов): рост в сутки и число дней до заполнения не приводятся, так как столь короткий промежуток не показывает тенденцию. Собирайте данные хотя бы сутки.',
    'prediction-few-requests': 'Прогноз построен всего по {requests} запросам (меньше {minimumRequests}): его доля попаданий и сэкономленные операции — грубые оценки.',
    'implausible-iops': '{devices}: интервалов с {iops} IOPS — {count}; это больше чем в 10 раз выше самого быстрого диска каталога ({drive}, {driveIops} IOPS). Ни одно устройство на это не способно: время или счётчики источника неверны, и эти скорости не реальны.',
    'implausible-mbps': '{devices}: интервалов с {mbps} МБ/с — {count}; это больше чем в 10 раз выше самого быстрого последовательного чтения в каталоге ({drive}, {driveMBps} МБ/с). Ни одно устройство на это не способно: время или счётчики байтов источника неверны, и эти скорости не реальны.',
    'trace-times-collapsed': '{requests} запросов трассы устройства {device} выданы за {spanMs} мс: {iops} IOPS ({mbPerSec} МБ/с), больше чем в 10 раз выше самого быстрого диска каталога ({drive}, {driveIops} IOPS). Время трассы схлопнулось (прочитано не в тех единицах?), поэтому её посекундные скорости не реальны.',
    'busiest-hour-partial': 'Самый нагруженный час построен по {coveredMinutes} мин данных, а не по целому часу: это неполный час.',
    'peak-at-range-end': 'Наибольшая интенсивность ввода-вывода ({iops} IOPS) приходится на последний интервал данных, заканчивающийся {end}: пик мог продолжаться и после конца данных.',
  },
};

/** Words used as parameter values. */
export const warningWords: Record<Lang, Record<WordKey, string>> = {
  en: {
    'window.baseline': 'baseline window', 'window.measure': 'measure window',
    'metric.iops': 'I/O rate', 'metric.readSharePercent': 'read share', 'metric.meanRequestBytes': 'mean request size', 'metric.bytesPerSec': 'throughput',
    'kind.reads': 'reads', 'kind.writes': 'writes', 'kind.all': 'all I/O',
  },
  fr: {
    'window.baseline': 'fenêtre de référence', 'window.measure': 'fenêtre de mesure',
    'metric.iops': 'débit d’E/S', 'metric.readSharePercent': 'part des lectures', 'metric.meanRequestBytes': 'taille moyenne des requêtes', 'metric.bytesPerSec': 'débit en octets',
    'kind.reads': 'lectures', 'kind.writes': 'écritures', 'kind.all': 'E/S',
  },
  es: {
    'window.baseline': 'ventana de referencia', 'window.measure': 'ventana de medida',
    'metric.iops': 'tasa de E/S', 'metric.readSharePercent': 'proporción de lecturas', 'metric.meanRequestBytes': 'tamaño medio de petición', 'metric.bytesPerSec': 'rendimiento',
    'kind.reads': 'lecturas', 'kind.writes': 'escrituras', 'kind.all': 'E/S',
  },
  ru: {
    'window.baseline': 'базовое', 'window.measure': 'измерение',
    'metric.iops': 'интенсивность операций', 'metric.readSharePercent': 'доля чтений', 'metric.meanRequestBytes': 'средний размер запроса', 'metric.bytesPerSec': 'пропускная способность',
    'kind.reads': 'чтения', 'kind.writes': 'записи', 'kind.all': 'все операции',
  },
};

/** Formats a number for a language with at most `maxDigits` decimals. */
export type NumberFormatter = (value: number, maxDigits: number) => string;

/** Decimals shown per numeric parameter; others get 0 (counts, seconds). */
const DIGITS: Record<string, number> = { fitHours: 1, coveredMinutes: 1, spanMs: 1, changePercent: 1, thresholdPercent: 1, coveragePercent: 1, value: 1, enginePercent: 1, countersPercent: 1, differencePoints: 1, thresholdPoints: 1 };
/** Parameters whose string values are words to translate, with the word-key prefix. */
const WORD_PARAMS: Record<string, string> = { window: 'window', metric: 'metric', kind: 'kind' };

function intlFormatter(lang: Lang): NumberFormatter {
  return (value, maxDigits) => numberFormat(lang, { maximumFractionDigits: maxDigits }).format(value);
}

function isCode(code: string): code is WarningCode {
  return Object.prototype.hasOwnProperty.call(warningCatalog.en, code);
}

/**
 * A warning as a sentence in `lang`, by its code: numbers in `params` formatted for the language
 * (`formatNumber`, default `Intl.NumberFormat` of the language's locale), window names, drift
 * metrics and I/O kinds translated. Falls back to the warning's own (English) `message` when the
 * code is unknown or a parameter the sentence needs is missing. A device the sentence does not
 * name is put in front (`loop0: …`); `{detail}` is the recorder's message.
 *
 * @example
 * warningText({ code: 'low-coverage', message: '…', params: { device: 'sda', window: 'measure', coveragePercent: 85.25 } }, 'fr')
 * // 'Le périphérique sda n’a des données que pour 85,3 % de la fenêtre de mesure.'
 */
export function warningText(
  w: { code: string; message: string; params?: Record<string, unknown> | undefined; device?: string | undefined },
  lang: Lang,
  formatNumber: NumberFormatter = intlFormatter(lang),
): string {
  if (!isCode(w.code)) return w.message;
  const template = warningCatalog[lang][w.code] ?? warningCatalog.en[w.code];
  const params: Record<string, unknown> = { detail: w.message, ...(w.device === undefined ? {} : { device: w.device }), ...(w.params ?? {}) };
  const words = warningWords[lang];
  let missing = false;
  const text = template.replace(/\{(\w+)\}/g, (_whole, key: string) => {
    const v = params[key];
    if (typeof v === 'number') return Number.isFinite(v) ? formatNumber(v, DIGITS[key] ?? 0) : String(v);
    if (typeof v === 'string') {
      const prefix = WORD_PARAMS[key];
      const word = prefix === undefined ? undefined : (words as Record<string, string>)[`${prefix}.${v}`];
      return word ?? v;
    }
    missing = true;
    return '';
  });
  if (missing) return w.message;
  return w.device !== undefined && !template.includes('{device}') ? `${w.device}: ${text}` : text;
}
