import type { Catalog } from './types.ts';

/**
 * Strings of the dashboard's read/write split, queue depth and request sizes
 * (app/src/renderer/dashboard/timeline.ts, shape.ts). The size buckets and the methods are named
 * by the report's catalog (report-shape.ts, engine `sizeBucketLabel`, `sizeMethodVal`), the same
 * words in both.
 */
export type DashboardShapeKey =
  | 'chart.rw' | 'def.chart.rw' | 'chart.queue' | 'def.chart.queue' | 'axis.perSec' | 'axis.queue'
  | 'series.reads' | 'series.writes' | 'series.queue' | 'unit.requests'
  | 'rwq.title' | 'def.rwq' | 'rwq.col.group' | 'rwq.col.window' | 'rwq.col.figure' | 'rwq.col.mean' | 'rwq.col.p95' | 'rwq.col.peak'
  | 'rwq.reads' | 'rwq.writes' | 'rwq.readShare' | 'rwq.queue'
  | 'chart.sizes' | 'def.chart.sizes' | 'sizes.show' | 'sizes.option' | 'sizes.reads' | 'sizes.writes' | 'axis.sizeBucket' | 'axis.iosShare'
  | 'sizes.series' | 'sum.sizes' | 'sum.sizesNone' | 'sizes.none' | 'sizes.tip';

export const dashboardShape: Catalog<DashboardShapeKey> = {
  en: {
    'chart.rw': 'Reads and writes per second over both windows',
    'def.chart.rw': 'Reads and writes completed per second in each interval (Δ reads ÷ Δt, Δ writes ÷ Δt), the front and the backing devices apart; a group is the sum of its devices. Reads are solid (front) or dashed (backing) lines, writes dotted or dash-dotted.',
    'chart.queue': 'Average queue size (aqu-sz) over both windows',
    'def.chart.queue': 'Average number of requests in the device, waiting or in service, in each interval: Δ weighted ms doing I/O ÷ Δ elapsed ms (iostat’s aqu-sz); a group is the sum of its devices.',
    'axis.perSec': 'I/Os per second', 'axis.queue': 'Requests in the device (aqu-sz)',
    'series.reads': 'Reads, {group}', 'series.writes': 'Writes, {group}', 'series.queue': 'Queue size, {group}', 'unit.requests': '{value} requests',
    'rwq.title': 'Reads, writes and queue size per window',
    'def.rwq': 'Per device group and window: the mean (ratio of sums over the window), the 95th percentile (type 7) and the peak of the per-interval reads per second, writes per second and average queue size; the read share of all I/Os.',
    'rwq.col.group': 'Devices', 'rwq.col.window': 'Window', 'rwq.col.figure': 'Figure', 'rwq.col.mean': 'Mean', 'rwq.col.p95': 'p95', 'rwq.col.peak': 'Peak',
    'rwq.reads': 'Reads per second', 'rwq.writes': 'Writes per second', 'rwq.readShare': 'Read share', 'rwq.queue': 'Queue size (aqu-sz)',
    'chart.sizes': 'Request sizes per window',
    'def.chart.sizes': 'Share of each window’s reads or writes by request size, in buckets whose edges are the powers of two from 512 B (“4–8 KiB”: 4 KiB or more, less than 8 KiB). From the interval counters, each interval’s average request size (bytes ÷ I/Os) places its I/Os; from a block trace, every request counts at its own size. The legend names the method of each window.',
    'sizes.show': 'Show', 'sizes.option': '{group} — {op}', 'sizes.reads': 'reads', 'sizes.writes': 'writes',
    'axis.sizeBucket': 'Request size', 'axis.iosShare': 'Share of I/Os (%)',
    'sizes.series': '{window} ({method})',
    'sum.sizes': '{window}: most I/Os in {bucket} ({pct}), mean size {mean}, {ios} counted, {method}',
    'sum.sizesNone': '{window}: none counted ({reason})',
    'sizes.none': 'No request size could be counted: the capture reports no bytes for these devices’ reads and writes.',
    'sizes.tip': '{count} in this bucket',
  },
  fr: {
    'chart.rw': 'Lectures et écritures par seconde sur les deux fenêtres',
    'def.chart.rw': 'Lectures et écritures terminées par seconde dans chaque intervalle (Δ lectures ÷ Δt, Δ écritures ÷ Δt), périphériques frontaux et sous-jacents à part ; un groupe est la somme de ses périphériques. Lectures en trait plein (frontal) ou en tirets (sous-jacent), écritures en pointillés ou en tirets-points.',
    'chart.queue': 'Taille moyenne de la file (aqu-sz) sur les deux fenêtres',
    'def.chart.queue': 'Nombre moyen de requêtes dans le périphérique, en attente ou en service, dans chaque intervalle : Δ ms pondérées d’E/S ÷ Δ ms écoulées (aqu-sz d’iostat) ; un groupe est la somme de ses périphériques.',
    'axis.perSec': 'E/S par seconde', 'axis.queue': 'Requêtes dans le périphérique (aqu-sz)',
    'series.reads': 'Lectures, {group}', 'series.writes': 'Écritures, {group}', 'series.queue': 'Taille de file, {group}', 'unit.requests': '{value} requêtes',
    'rwq.title': 'Lectures, écritures et taille de file par fenêtre',
    'def.rwq': 'Par groupe de périphériques et fenêtre : la moyenne (rapport des sommes sur la fenêtre), le 95e centile (type 7) et le pic des valeurs par intervalle des lectures par seconde, écritures par seconde et taille moyenne de file ; la part des lectures dans toutes les E/S.',
    'rwq.col.group': 'Périphériques', 'rwq.col.window': 'Fenêtre', 'rwq.col.figure': 'Grandeur', 'rwq.col.mean': 'Moyenne', 'rwq.col.p95': 'p95', 'rwq.col.peak': 'Pic',
    'rwq.reads': 'Lectures par seconde', 'rwq.writes': 'Écritures par seconde', 'rwq.readShare': 'Part des lectures', 'rwq.queue': 'Taille de file (aqu-sz)',
    'chart.sizes': 'Tailles des requêtes par fenêtre',
    'def.chart.sizes': 'Part des lectures ou écritures de chaque fenêtre par taille de requête, par classes dont les bornes sont les puissances de deux à partir de 512 o (« 4–8 Kio » : 4 Kio ou plus, moins de 8 Kio). D’après les compteurs par intervalle, la taille moyenne des requêtes de chaque intervalle (octets ÷ E/S) place ses E/S ; d’après une trace de blocs, chaque requête compte à sa propre taille. La légende indique la méthode de chaque fenêtre.',
    'sizes.show': 'Afficher', 'sizes.option': '{group} — {op}', 'sizes.reads': 'lectures', 'sizes.writes': 'écritures',
    'axis.sizeBucket': 'Taille de requête', 'axis.iosShare': 'Part des E/S (%)',
    'sizes.series': '{window} ({method})',
    'sum.sizes': '{window} : le plus d’E/S en {bucket} ({pct}), taille moyenne {mean}, {ios} comptées, {method}',
    'sum.sizesNone': '{window} : rien de compté ({reason})',
    'sizes.none': 'Aucune taille de requête n’a pu être comptée : la capture ne donne pas d’octets pour les lectures et écritures de ces périphériques.',
    'sizes.tip': '{count} dans cette classe',
  },
  es: {
    'chart.rw': 'Lecturas y escrituras por segundo en ambas ventanas',
    'def.chart.rw': 'Lecturas y escrituras completadas por segundo en cada intervalo (Δ lecturas ÷ Δt, Δ escrituras ÷ Δt), los dispositivos frontales y los de respaldo por separado; un grupo es la suma de sus dispositivos. Lecturas en línea continua (frontal) o discontinua (respaldo), escrituras en puntos o en trazo y punto.',
    'chart.queue': 'Tamaño medio de la cola (aqu-sz) en ambas ventanas',
    'def.chart.queue': 'Número medio de solicitudes en el dispositivo, en espera o en servicio, en cada intervalo: Δ ms ponderados de E/S ÷ Δ ms transcurridos (aqu-sz de iostat); un grupo es la suma de sus dispositivos.',
    'axis.perSec': 'E/S por segundo', 'axis.queue': 'Solicitudes en el dispositivo (aqu-sz)',
    'series.reads': 'Lecturas, {group}', 'series.writes': 'Escrituras, {group}', 'series.queue': 'Tamaño de cola, {group}', 'unit.requests': '{value} solicitudes',
    'rwq.title': 'Lecturas, escrituras y tamaño de cola por ventana',
    'def.rwq': 'Por grupo de dispositivos y ventana: la media (cociente de sumas sobre la ventana), el percentil 95 (tipo 7) y el pico de los valores por intervalo de lecturas por segundo, escrituras por segundo y tamaño medio de cola; la proporción de lecturas en todas las E/S.',
    'rwq.col.group': 'Dispositivos', 'rwq.col.window': 'Ventana', 'rwq.col.figure': 'Magnitud', 'rwq.col.mean': 'Media', 'rwq.col.p95': 'p95', 'rwq.col.peak': 'Pico',
    'rwq.reads': 'Lecturas por segundo', 'rwq.writes': 'Escrituras por segundo', 'rwq.readShare': 'Proporción de lecturas', 'rwq.queue': 'Tamaño de cola (aqu-sz)',
    'chart.sizes': 'Tamaños de las solicitudes por ventana',
    'def.chart.sizes': 'Proporción de las lecturas o escrituras de cada ventana por tamaño de solicitud, en clases cuyos límites son las potencias de dos desde 512 B («4–8 KiB»: 4 KiB o más, menos de 8 KiB). Con los contadores por intervalo, el tamaño medio de solicitud de cada intervalo (bytes ÷ E/S) coloca sus E/S; con una traza de bloques, cada solicitud cuenta con su propio tamaño. La leyenda indica el método de cada ventana.',
    'sizes.show': 'Mostrar', 'sizes.option': '{group} — {op}', 'sizes.reads': 'lecturas', 'sizes.writes': 'escrituras',
    'axis.sizeBucket': 'Tamaño de solicitud', 'axis.iosShare': 'Proporción de E/S (%)',
    'sizes.series': '{window} ({method})',
    'sum.sizes': '{window}: la mayoría de E/S en {bucket} ({pct}), tamaño medio {mean}, {ios} contadas, {method}',
    'sum.sizesNone': '{window}: nada contado ({reason})',
    'sizes.none': 'No se pudo contar ningún tamaño de solicitud: la captura no da bytes para las lecturas y escrituras de estos dispositivos.',
    'sizes.tip': '{count} en esta clase',
  },
  ru: {
    'chart.rw': 'Чтения и записи в секунду в обоих окнах',
    'def.chart.rw': 'Завершённые чтения и записи в секунду в каждом интервале (Δ чтений ÷ Δt, Δ записей ÷ Δt), фронтальные и базовые устройства отдельно; группа — сумма своих устройств. Чтения — сплошная (фронтальные) или штриховая (базовые) линия, записи — точки или штрихпунктир.',
    'chart.queue': 'Средний размер очереди (aqu-sz) в обоих окнах',
    'def.chart.queue': 'Среднее число запросов в устройстве, ожидающих или обслуживаемых, в каждом интервале: Δ взвешенных мс ввода-вывода ÷ Δ прошедших мс (aqu-sz в iostat); группа — сумма своих устройств.',
    'axis.perSec': 'Операций в секунду', 'axis.queue': 'Запросов в устройстве (aqu-sz)',
    'series.reads': 'Чтения, {group}', 'series.writes': 'Записи, {group}', 'series.queue': 'Размер очереди, {group}', 'unit.requests': '{value} {value|one:запрос|few:запроса|many:запросов|other:запроса}',
    'rwq.title': 'Чтения, записи и размер очереди по окнам',
    'def.rwq': 'По группе устройств и окну: среднее (отношение сумм по окну), 95-й процентиль (тип 7) и пик значений по интервалам для чтений в секунду, записей в секунду и среднего размера очереди; доля чтений среди всех операций.',
    'rwq.col.group': 'Устройства', 'rwq.col.window': 'Окно', 'rwq.col.figure': 'Показатель', 'rwq.col.mean': 'Среднее', 'rwq.col.p95': 'p95', 'rwq.col.peak': 'Пик',
    'rwq.reads': 'Чтений в секунду', 'rwq.writes': 'Записей в секунду', 'rwq.readShare': 'Доля чтений', 'rwq.queue': 'Размер очереди (aqu-sz)',
    'chart.sizes': 'Размеры запросов по окнам',
    'def.chart.sizes': 'Доля чтений или записей каждого окна по размеру запроса, по интервалам размеров с границами в степенях двойки от 512 Б («4–8 КиБ»: от 4 КиБ включительно до 8 КиБ). По счётчикам интервалов средний размер запроса каждого интервала (байты ÷ операции) определяет место его операций; по трассе блоков каждый запрос учитывается со своим размером. В легенде указан метод каждого окна.',
    'sizes.show': 'Показать', 'sizes.option': '{group} — {op}', 'sizes.reads': 'чтения', 'sizes.writes': 'записи',
    'axis.sizeBucket': 'Размер запроса', 'axis.iosShare': 'Доля операций (%)',
    'sizes.series': '{window} ({method})',
    'sum.sizes': '{window}: больше всего операций в {bucket} ({pct}), средний размер {mean}, учтено {ios}, {method}',
    'sum.sizesNone': '{window}: ничего не учтено ({reason})',
    'sizes.none': 'Размеры запросов посчитать нельзя: в записи нет байтов для чтений и записей этих устройств.',
    'sizes.tip': '{count} в этом интервале',
  },
};
