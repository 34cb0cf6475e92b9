import type { Catalog } from './types.ts';

/**
 * Strings of the dashboard's response time from the block trace that the prediction catalog
 * (prediction.ts, keys `lat.*`) does not hold (namespace `traceLatency`): the method of the
 * percentiles, and the per-hour chart (app/src/renderer/dashboard/trace-latency.ts). Numbers
 * arrive already formatted for the language, with their unit.
 */
export type TraceLatencyKey =
  | 'method.histograms' | 'method.requests' | 'method.requestsSampled'
  | 'hour.title' | 'hour.def' | 'hour.series' | 'hour.option' | 'hour.axisTime' | 'hour.axisMs'
  | 'hour.summary' | 'hour.point' | 'hour.none' | 'hour.tooltip' | 'hour.requests';

export const traceLatency: Catalog<TraceLatencyKey> = {
  en: {
    'method.histograms': 'Method: every traced request, counted by the probe’s tracer into a histogram per sample interval before the trace keeps its sample ({rate} of the block addresses are stored): the percentiles include every request.',
    'method.requests': 'Method: the requests stored in the capture (traced by an earlier probe, without the tracer’s per-interval histograms).',
    'method.requestsSampled': 'Method: the requests stored in the capture, a sample of {rate} of the block addresses (traced by an earlier probe, without the tracer’s per-interval histograms): the percentiles are those of the sample.',
    'hour.title': 'Response time per hour from the block trace',
    'hour.def': 'The p50, p95, p99 and p99.9 of one device’s reads or writes in each clock hour (UTC), each drawn at the upper edge of the log-scale bucket (4 per octave) that holds it, at the middle of the hour; a log-scale axis.',
    'hour.series': 'Device and operation',
    'hour.option': '{device} · {op}',
    'hour.axisTime': 'Hour (UTC)',
    'hour.axisMs': 'Response time (ms, log scale)',
    'hour.summary': '{device}, {op}, per hour (upper bucket edges): {points}.',
    'hour.point': '{hour} p50 ≤ {p50}, p99 ≤ {p99}',
    'hour.none': 'Per-hour figures: not in this capture’s stored latency (written by an earlier probe); cacheproof-probe latency CAPTURE --store adds them.',
    'hour.tooltip': '{label}: {low}–{high} µs',
    'hour.requests': '{n} requests in the hour',
  },
  fr: {
    'method.histograms': 'Méthode : chaque requête tracée, comptée par le traceur de la sonde dans un histogramme par intervalle d’échantillonnage avant que la trace ne garde son échantillon ({rate} des adresses de blocs sont stockées) : les percentiles incluent toutes les requêtes.',
    'method.requests': 'Méthode : les requêtes stockées dans la capture (tracée par une sonde antérieure, sans les histogrammes par intervalle du traceur).',
    'method.requestsSampled': 'Méthode : les requêtes stockées dans la capture, un échantillon de {rate} des adresses de blocs (tracée par une sonde antérieure, sans les histogrammes par intervalle du traceur) : les percentiles sont ceux de l’échantillon.',
    'hour.title': 'Temps de réponse par heure d’après la trace de blocs',
    'hour.def': 'Les p50, p95, p99 et p99,9 des lectures ou des écritures d’un périphérique pour chaque heure d’horloge (UTC), chacun tracé à la borne haute de la classe logarithmique (4 par octave) qui le contient, au milieu de l’heure ; axe logarithmique.',
    'hour.series': 'Périphérique et opération',
    'hour.option': '{device} · {op}',
    'hour.axisTime': 'Heure (UTC)',
    'hour.axisMs': 'Temps de réponse (ms, échelle logarithmique)',
    'hour.summary': '{device}, {op}, par heure (bornes hautes des classes) : {points}.',
    'hour.point': '{hour} p50 ≤ {p50}, p99 ≤ {p99}',
    'hour.none': 'Chiffres par heure : absents de la latence stockée de cette capture (écrite par une sonde antérieure) ; cacheproof-probe latency CAPTURE --store les ajoute.',
    'hour.tooltip': '{label} : {low}–{high} µs',
    'hour.requests': '{n} requêtes dans l’heure',
  },
  es: {
    'method.histograms': 'Método: cada solicitud trazada, contada por el trazador de la sonda en un histograma por intervalo de muestreo antes de que la traza guarde su muestra (se almacenan {rate} de las direcciones de bloque): los percentiles incluyen todas las solicitudes.',
    'method.requests': 'Método: las solicitudes almacenadas en la captura (trazada por una sonda anterior, sin los histogramas por intervalo del trazador).',
    'method.requestsSampled': 'Método: las solicitudes almacenadas en la captura, una muestra de {rate} de las direcciones de bloque (trazada por una sonda anterior, sin los histogramas por intervalo del trazador): los percentiles son los de la muestra.',
    'hour.title': 'Tiempo de respuesta por hora según la traza de bloques',
    'hour.def': 'Los p50, p95, p99 y p99,9 de las lecturas o escrituras de un dispositivo en cada hora de reloj (UTC), cada uno dibujado en el límite superior de la clase logarítmica (4 por octava) que lo contiene, a mitad de la hora; eje logarítmico.',
    'hour.series': 'Dispositivo y operación',
    'hour.option': '{device} · {op}',
    'hour.axisTime': 'Hora (UTC)',
    'hour.axisMs': 'Tiempo de respuesta (ms, escala logarítmica)',
    'hour.summary': '{device}, {op}, por hora (límites superiores de las clases): {points}.',
    'hour.point': '{hour} p50 ≤ {p50}, p99 ≤ {p99}',
    'hour.none': 'Cifras por hora: no están en la latencia almacenada de esta captura (escrita por una sonda anterior); cacheproof-probe latency CAPTURE --store las añade.',
    'hour.tooltip': '{label}: {low}–{high} µs',
    'hour.requests': '{n} solicitudes en la hora',
  },
  ru: {
    'method.histograms': 'Метод: каждый трассированный запрос, учтённый трассировщиком зонда в гистограмме за каждый интервал опроса до того, как трасса оставит свою выборку (хранится {rate} адресов блоков): процентили учитывают все запросы.',
    'method.requests': 'Метод: запросы, сохранённые в захвате (трасса записана более ранней версией зонда, без гистограмм по интервалам).',
    'method.requestsSampled': 'Метод: запросы, сохранённые в захвате, — выборка {rate} адресов блоков (трасса записана более ранней версией зонда, без гистограмм по интервалам): процентили относятся к выборке.',
    'hour.title': 'Время отклика по часам по трассе блоков',
    'hour.def': 'p50, p95, p99 и p99,9 чтений или записей одного устройства за каждый час (UTC); каждый процентиль показан по верхней границе логарифмического интервала (4 на октаву), в середине часа; логарифмическая шкала.',
    'hour.series': 'Устройство и операция',
    'hour.option': '{device} · {op}',
    'hour.axisTime': 'Час (UTC)',
    'hour.axisMs': 'Время отклика (мс, логарифмическая шкала)',
    'hour.summary': '{device}, {op}, по часам (верхние границы интервалов): {points}.',
    'hour.point': '{hour} p50 ≤ {p50}, p99 ≤ {p99}',
    'hour.none': 'Почасовых данных нет в сохранённой задержке этого захвата (записана более ранней версией зонда); их добавляет cacheproof-probe latency CAPTURE --store.',
    'hour.tooltip': '{label}: {low}–{high} мкс',
    'hour.requests': '{n} {n|one:запрос|few:запроса|other:запросов} за час',
  },
};
