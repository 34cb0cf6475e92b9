import type { FLEET_REPORT_KEYS } from '@cacheproof/engine/report';
import type { Catalog } from './types.ts';

/** The fleet report's strings (engine/src/report/fleet-report.ts), spread into the `report` catalog (report.ts). */
export type FleetReportKey = (typeof FLEET_REPORT_KEYS)[number];

export const fleetReport: Catalog<FleetReportKey> = {
  en: {
    'fl.defaultTitle': 'Fleet workload', 'fl.subtitle': 'What the fleet’s disks were asked to carry, together and host by host, for sizing the storage',
    'fl.cover.hosts': 'Hosts', 'fl.cover.source': 'Source', 'fl.cover.window': 'Moments summed',
    'fl.verdict': 'Summed moment by moment, the {hosts} hosts of the fleet peak at {peak} from {start} to {end}; 95% of the moments stay at or below {p95}, and the mean is {mean}. Sized host by host, each for its own peak, they would need {sumOfPeaks}: the hosts do not peak together.',
    'fl.verdictTogether': 'Summed moment by moment, the {hosts} hosts of the fleet peak at {peak} from {start} to {end}; 95% of the moments stay at or below {p95}, and the mean is {mean}. The hosts peak together: sized host by host, each for its own peak, they would need the same {sumOfPeaks}.',
    'fl.verdictNone': 'No host of the fleet has a usable interval: the fleet has no aggregate.',
    'fl.t.aggregate': 'The fleet as one load', 'fl.t.aggregateCaption': 'The IOPS of every host’s application-facing devices summed at each moment ({moments} moments, {hosts} hosts).', 'fl.c.value': 'IOPS',
    'fl.f.peak': 'Peak of the fleet', 'fl.f.peakWhen': 'Peak of the fleet ({start} to {end})', 'fl.f.p95': '95th percentile of the fleet', 'fl.f.mean': 'Mean of the fleet', 'fl.f.sumOfPeaks': 'The hosts’ own peaks, summed',
    'fl.t.makers': 'The hosts that make the peak', 'fl.t.makersCaption': 'The {shown} largest hosts at the fleet’s peak moment and their share of it.', 'fl.c.host': 'Host', 'fl.c.iops': 'IOPS', 'fl.c.share': 'Share of the peak',
    'fl.t.hosts': 'The hosts ({n})', 'fl.t.hostsCaption': 'Each host’s own workload profile: the figures its own capture gives.', 'fl.c.devices': 'Devices', 'fl.c.latency': 'Response time (ms)', 'fl.c.mbps': 'Throughput (MB/s)', 'fl.c.health': 'Health', 'fl.c.window': 'Window',
    'fl.noFigures': 'No figures: {why}',
    'fl.m.sum': 'At each moment (an interval start), the IOPS of each host’s application-facing devices — reads and writes over the interval’s seconds — are summed; a host with no usable interval at a moment adds nothing to it. The fleet’s peak, 95th percentile and mean are those of the sum; its peak is not the sum of the hosts’ peaks.',
    'fl.m.hosts': 'Each host is profiled as its own capture would be: its window’s mean IOPS, MB/s (10⁶ bytes) and I/O-weighted response time, graded against the latency targets.',
  },
  fr: {
    'fl.defaultTitle': 'Charge de la flotte', 'fl.subtitle': 'Ce que les disques de la flotte ont eu à porter, ensemble et hôte par hôte, pour dimensionner le stockage',
    'fl.cover.hosts': 'Hôtes', 'fl.cover.source': 'Source', 'fl.cover.window': 'Instants additionnés',
    'fl.verdict': 'Additionnés instant par instant, les {hosts} hôtes de la flotte culminent à {peak} de {start} à {end} ; 95 % des instants restent à {p95} ou moins, et la moyenne est de {mean}. Dimensionnés hôte par hôte, chacun pour son propre pic, il leur faudrait {sumOfPeaks} : les hôtes ne culminent pas ensemble.',
    'fl.verdictTogether': 'Additionnés instant par instant, les {hosts} hôtes de la flotte culminent à {peak} de {start} à {end} ; 95 % des instants restent à {p95} ou moins, et la moyenne est de {mean}. Les hôtes culminent ensemble : dimensionnés hôte par hôte, chacun pour son propre pic, il leur faudrait les mêmes {sumOfPeaks}.',
    'fl.verdictNone': 'Aucun hôte de la flotte n’a d’intervalle exploitable : la flotte n’a pas d’agrégat.',
    'fl.t.aggregate': 'La flotte comme une seule charge', 'fl.t.aggregateCaption': 'Les IOPS des périphériques qu’utilisent les applications de chaque hôte, additionnées à chaque instant ({moments} instants, {hosts} hôtes).', 'fl.c.value': 'IOPS',
    'fl.f.peak': 'Pic de la flotte', 'fl.f.peakWhen': 'Pic de la flotte (de {start} à {end})', 'fl.f.p95': '95e centile de la flotte', 'fl.f.mean': 'Moyenne de la flotte', 'fl.f.sumOfPeaks': 'Les pics propres des hôtes, additionnés',
    'fl.t.makers': 'Les hôtes qui font le pic', 'fl.t.makersCaption': 'Les {shown} plus gros hôtes à l’instant du pic de la flotte et leur part de celui-ci.', 'fl.c.host': 'Hôte', 'fl.c.iops': 'IOPS', 'fl.c.share': 'Part du pic',
    'fl.t.hosts': 'Les hôtes ({n})', 'fl.t.hostsCaption': 'Le profil de charge propre à chaque hôte : les chiffres que donne sa propre capture.', 'fl.c.devices': 'Périphériques', 'fl.c.latency': 'Temps de réponse (ms)', 'fl.c.mbps': 'Débit (Mo/s)', 'fl.c.health': 'Santé', 'fl.c.window': 'Fenêtre',
    'fl.noFigures': 'Pas de chiffres : {why}',
    'fl.m.sum': 'À chaque instant (un début d’intervalle), les IOPS des périphériques qu’utilisent les applications de chaque hôte — lectures et écritures sur les secondes de l’intervalle — sont additionnées ; un hôte sans intervalle exploitable à un instant n’y ajoute rien. Le pic, le 95e centile et la moyenne de la flotte sont ceux de la somme ; son pic n’est pas la somme des pics des hôtes.',
    'fl.m.hosts': 'Chaque hôte est profilé comme le serait sa propre capture : IOPS et Mo/s (10⁶ octets) moyens de sa fenêtre et temps de réponse pondéré par les E/S, noté par rapport aux cibles de latence.',
  },
  es: {
    'fl.defaultTitle': 'Carga de la flota', 'fl.subtitle': 'Lo que se pidió a los discos de la flota, en conjunto y host por host, para dimensionar el almacenamiento',
    'fl.cover.hosts': 'Hosts', 'fl.cover.source': 'Origen', 'fl.cover.window': 'Momentos sumados',
    'fl.verdict': 'Sumados momento a momento, los {hosts} hosts de la flota alcanzan un pico de {peak} de {start} a {end}; el 95 % de los momentos se queda en {p95} o menos, y la media es {mean}. Dimensionados host por host, cada uno para su propio pico, necesitarían {sumOfPeaks}: los hosts no alcanzan el pico a la vez.',
    'fl.verdictTogether': 'Sumados momento a momento, los {hosts} hosts de la flota alcanzan un pico de {peak} de {start} a {end}; el 95 % de los momentos se queda en {p95} o menos, y la media es {mean}. Los hosts alcanzan el pico a la vez: dimensionados host por host, cada uno para su propio pico, necesitarían los mismos {sumOfPeaks}.',
    'fl.verdictNone': 'Ningún host de la flota tiene un intervalo utilizable: la flota no tiene agregado.',
    'fl.t.aggregate': 'La flota como una sola carga', 'fl.t.aggregateCaption': 'Las IOPS de los dispositivos que usan las aplicaciones de cada host, sumadas en cada momento ({moments} momentos, {hosts} hosts).', 'fl.c.value': 'IOPS',
    'fl.f.peak': 'Pico de la flota', 'fl.f.peakWhen': 'Pico de la flota (de {start} a {end})', 'fl.f.p95': 'Percentil 95 de la flota', 'fl.f.mean': 'Media de la flota', 'fl.f.sumOfPeaks': 'Los picos propios de los hosts, sumados',
    'fl.t.makers': 'Los hosts que forman el pico', 'fl.t.makersCaption': 'Los {shown} hosts mayores en el momento del pico de la flota y su parte del mismo.', 'fl.c.host': 'Host', 'fl.c.iops': 'IOPS', 'fl.c.share': 'Parte del pico',
    'fl.t.hosts': 'Los hosts ({n})', 'fl.t.hostsCaption': 'El perfil de carga propio de cada host: las cifras que da su propia captura.', 'fl.c.devices': 'Dispositivos', 'fl.c.latency': 'Tiempo de respuesta (ms)', 'fl.c.mbps': 'Rendimiento (MB/s)', 'fl.c.health': 'Salud', 'fl.c.window': 'Ventana',
    'fl.noFigures': 'Sin cifras: {why}',
    'fl.m.sum': 'En cada momento (el inicio de un intervalo) se suman las IOPS de los dispositivos que usan las aplicaciones de cada host — lecturas y escrituras sobre los segundos del intervalo —; un host sin intervalo utilizable en un momento no le suma nada. El pico, el percentil 95 y la media de la flota son los de la suma; su pico no es la suma de los picos de los hosts.',
    'fl.m.hosts': 'Cada host se perfila como se perfilaría su propia captura: IOPS y MB/s (10⁶ bytes) medios de su ventana y tiempo de respuesta ponderado por E/S, evaluado frente a los objetivos de latencia.',
  },
  ru: {
    'fl.defaultTitle': 'Нагрузка парка', 'fl.subtitle': 'Что требовалось от дисков парка — вместе и по каждому хосту — для расчёта хранилища',
    'fl.cover.hosts': 'Хосты', 'fl.cover.source': 'Источник', 'fl.cover.window': 'Просуммировано моментов',
    'fl.verdict': 'В сумме по моментам хосты парка (всего: {hosts}) достигают пика {peak} с {start} по {end}; 95 % моментов не превышают {p95}, среднее — {mean}. При расчёте каждого хоста на его собственный пик потребовалось бы {sumOfPeaks}: хосты не достигают пика одновременно.',
    'fl.verdictTogether': 'В сумме по моментам хосты парка (всего: {hosts}) достигают пика {peak} с {start} по {end}; 95 % моментов не превышают {p95}, среднее — {mean}. Хосты достигают пика одновременно: при расчёте каждого хоста на его собственный пик потребовались бы те же {sumOfPeaks}.',
    'fl.verdictNone': 'Ни у одного хоста парка нет пригодного интервала: у парка нет суммарной нагрузки.',
    'fl.t.aggregate': 'Парк как одна нагрузка', 'fl.t.aggregateCaption': 'IOPS устройств, которыми пользуются приложения каждого хоста, просуммированные в каждый момент (моментов: {moments}, хостов: {hosts}).', 'fl.c.value': 'IOPS',
    'fl.f.peak': 'Пик парка', 'fl.f.peakWhen': 'Пик парка (с {start} по {end})', 'fl.f.p95': '95-й процентиль парка', 'fl.f.mean': 'Среднее парка', 'fl.f.sumOfPeaks': 'Собственные пики хостов, в сумме',
    'fl.t.makers': 'Хосты, из которых складывается пик', 'fl.t.makersCaption': 'Крупнейшие хосты в момент пика парка (показано: {shown}) и их доля в нём.', 'fl.c.host': 'Хост', 'fl.c.iops': 'IOPS', 'fl.c.share': 'Доля пика',
    'fl.t.hosts': 'Хосты ({n})', 'fl.t.hostsCaption': 'Собственный профиль нагрузки каждого хоста: цифры, которые даёт его собственный захват.', 'fl.c.devices': 'Устройства', 'fl.c.latency': 'Время отклика (мс)', 'fl.c.mbps': 'Пропускная способность (МБ/с)', 'fl.c.health': 'Состояние', 'fl.c.window': 'Окно',
    'fl.noFigures': 'Нет цифр: {why}',
    'fl.m.sum': 'В каждый момент (начало интервала) IOPS устройств, которыми пользуются приложения каждого хоста, — чтения и записи за секунды интервала — суммируются; хост без пригодного интервала в какой-то момент ничего к нему не добавляет. Пик, 95-й процентиль и среднее парка — это величины суммы; пик парка — не сумма пиков хостов.',
    'fl.m.hosts': 'Каждый хост профилируется так, как профилировался бы его собственный захват: средние IOPS и МБ/с (10⁶ байт) его окна и средневзвешенное по операциям время отклика, оценённое относительно целевых задержек.',
  },
};
