import type { Catalog } from './types.ts';

/**
 * What the probe says in an import preview (`said`, native/crates/import/src/said.rs): one code a
 * sentence, `{name}` a value (a name, path or number, another sentence, or a list of them). The
 * English is the probe's own template, word for word (probe-said.test.ts checks it).
 */
export type SaidCode =
  | 'as-written'
  | 'empty'
  | 'in-file'
  | 'iostat-first-since-boot'
  | 'iostat-first-kept-y'
  | 'no-times-midnight'
  | 'tps-split'
  | 'sadf-each-line'
  | 'sar-each-line'
  | 'sar-restart'
  | 'stack-one-layer'
  | 'stack-edge'
  | 'perfmon-backing-only'
  | 'perfmon-incomplete-fronts'
  | 'perfmon-repeat-column'
  | 'perfmon-repeat-columns'
  | 'no-switch'
  | 'stitch-repeat'
  | 'prom-resets'
  | 'prom-win-latency'
  | 'needs-interval'
  | 'tz-given'
  | 'tz-header-bias'
  | 'tz-not-in-file-zone'
  | 'tz-not-in-file'
  | 'tz-timestamps-utc'
  | 'tz-timestamps-offset'
  | 'tz-diskstats-utc'
  | 'tz-uptime'
  | 'tz-prometheus-utc'
  | 'enc-detected'
  | 'enc-bom'
  | 'enc-given'
  | 'enc-http'
  | 'role-stacked'
  | 'role-loop'
  | 'role-partition'
  | 'role-whole-disk'
  | 'role-volume-on-numbers'
  | 'role-volume-untracked'
  | 'role-given'
  | 'role-win-disk'
  | 'role-win-disk-first'
  | 'role-win-volume'
  | 'role-win-volume-same-layer-on'
  | 'role-win-volume-same-layer'
  | 'role-win-volume-counted-on'
  | 'role-win-volume-counted'
  | 'role-win-exporter-volume'
  | 'what-column'
  | 'what-column-at'
  | 'what-counter'
  | 'what-counter-column'
  | 'what-counter-columns'
  | 'what-object-column'
  | 'what-object-columns'
  | 'what-metric'
  | 'why-not-counter-path'
  | 'why-total'
  | 'why-not-disk-object'
  | 'why-not-esxtop-object'
  | 'why-not-in-table'
  | 'why-derived-counter'
  | 'why-derived-column'
  | 'why-unknown-column'
  | 'why-not-work-counter'
  | 'phase-baseline'
  | 'phase-switch'
  | 'phase-warmup'
  | 'phase-measure'
  | 'kind-partition'
  | 'kind-from-numbers'
  | 'kind-view'
  | 'esxtop-counted-host'
  | 'esxtop-counted'
  | 'role-esx-device'
  | 'role-esx-adapter'
  | 'role-esx-other'
  | 'role-esx-view'
  | 'kind-esx-view'
  | 'esx-device'
  | 'esx-adapter'
  | 'esx-path'
  | 'esx-vm'
  | 'esx-world';

export const probeSaid: Catalog<SaidCode> = {
  en: {
    'as-written': '{text}',
    'empty': '',
    'in-file': '{file}: {said}',
    'iostat-first-since-boot': 'iostat\'s first report covers the time since boot: like every first sample, it gives no interval',
    'iostat-first-kept-y': 'iostat ran with -y: its first report is an interval like the others (ending at its time), not the time since boot, and is kept',
    'no-times-midnight': 'the file has no times: the first report is placed at midnight of the banner\'s date (give --start TIME for the real start)',
    'tps-split': 'the source gives tps (transfers/s) without the read/write split: reads and writes are estimated by sharing tps in proportion to the bytes read and written, and both use the one await',
    'sadf-each-line': 'each line is the rate over its interval, ending at its timestamp (the interval column gives the length): the first line\'s interval starts before it, so no line is left out',
    'sar-each-line': 'each line is the rate over the interval ending at its time; the first line after a header starts at the header\'s time, so no line is left out',
    'sar-restart': 'line {line}: the system restarted; the interval across it is a gap',
    'stack-one-layer': 'the device stack ({edges}): one layer is counted, the whole disks; a partition or a volume on a disk is listed, not counted again',
    'stack-edge': '{holder} on {on} ({kind})',
    'perfmon-backing-only': 'the comparison is backing-only (the drives before vs after): on Windows, LogicalDisk and PhysicalDisk both sit below any in-OS cache, so they are one layer; PhysicalDisk is counted and LogicalDisk is not (give --role NAME=front only when a cache sits between them)',
    'perfmon-incomplete-fronts': 'not a possible front, its counters are incomplete over the file: {volumes}',
    'perfmon-repeat-column': '{n} column repeat an earlier column\'s path: the first of each is used',
    'perfmon-repeat-columns': '{n} columns repeat an earlier column\'s path: the first of each is used',
    'no-switch': 'no switch given (--switch-at, or --baseline and --measure files): the whole import is the baseline',
    'stitch-repeat': '{file} line {line}: {ms} ms from the last row of {other}: a repeat of the same moment, not used',
    'prom-resets': '{device}: {resets} counter reset(s) (a counter went down: the exporter or the host restarted); each such interval is a \'reset\' with no numbers',
    'prom-win-latency': 'windows_exporter: the latency is Δ(read_latency_seconds_total) ÷ Δ(reads_total) (and likewise for writes); read_seconds_total and write_seconds_total are busy time, not latency, and are not used',
    'needs-interval': '--interval SECONDS: {what} printed no times (run it with -t next time); give the interval it ran with',
    'tz-given': '--utc-offset',
    'tz-header-bias': 'header (bias = UTC − local)',
    'tz-not-in-file-zone': 'not in the file (zone name without bias): times taken as UTC (give --utc-offset MINUTES if they were local)',
    'tz-not-in-file': 'not in the file: times taken as UTC (give --utc-offset MINUTES if they were local)',
    'tz-timestamps-utc': 'timestamps (UTC)',
    'tz-timestamps-offset': 'timestamps (ISO 8601 with offset)',
    'tz-diskstats-utc': 'times are UTC (epoch or ISO 8601 with offset)',
    'tz-uptime': 'uptime only: the absolute time is --start (or the epoch) + uptime',
    'tz-prometheus-utc': 'Prometheus times are UTC',
    'enc-detected': 'detected',
    'enc-bom': 'bom',
    'enc-given': 'given',
    'enc-http': 'HTTP API (JSON)',
    'role-stacked': 'a stacked device (device-mapper, md or bcache): what the applications use',
    'role-loop': 'loop, RAM, optical or network block device: not a disk under a cache',
    'role-partition': 'a partition (its disk is counted whole)',
    'role-whole-disk': 'a whole disk: the slow storage a cache would sit in front of',
    'role-volume-on-numbers': 'a {kind} volume; the file does not name its disks: proposed on {on} from the numbers (its traffic tracks {on}\'s interval by interval, r = {r} over {n} intervals, and never exceeds it): not counted, its I/O is counted on {on}',
    'role-volume-untracked': 'a {kind} volume; the file does not name its disks, and no disk\'s numbers track it: not counted (its I/O is its disks\'); give --role {device}=backing to count it instead of them',
    'role-given': 'given with --role',
    'role-win-disk': 'a Windows disk (PhysicalDisk): the drives, counted',
    'role-win-disk-first': 'a Windows disk (PhysicalDisk): the storage beneath the volumes',
    'role-win-volume': 'a Windows volume (LogicalDisk)',
    'role-win-volume-same-layer-on': 'a Windows volume (LogicalDisk) on {on}: the same layer as the disks (both below any in-OS cache), not counted',
    'role-win-volume-same-layer': 'a Windows volume (LogicalDisk): the same layer as the disks (both below any in-OS cache), not counted',
    'role-win-volume-counted-on': 'a Windows volume (LogicalDisk) on {on}: no PhysicalDisk in the log for its host, so the volumes are counted as the drives',
    'role-win-volume-counted': 'a Windows volume (LogicalDisk): no PhysicalDisk in the log for its host, so the volumes are counted as the drives',
    'role-win-exporter-volume': 'a Windows volume (LogicalDisk) on {on}: what the applications use',
    'what-column': 'column \'{name}\'',
    'what-column-at': 'column {n} \'{name}\'',
    'what-counter': 'counter \'{name}\'',
    'what-counter-column': 'counter \'{name}\' ({n} column)',
    'what-counter-columns': 'counter \'{name}\' ({n} columns)',
    'what-object-column': 'object \'{name}\' ({n} column)',
    'what-object-columns': 'object \'{name}\' ({n} columns)',
    'what-metric': 'metric {name}',
    'why-not-counter-path': 'not a counter path (\\\\HOST\\Object(Instance)\\Counter)',
    'why-total': 'the sum of the other instances, which are imported one by one',
    'why-not-disk-object': 'not a disk object (PhysicalDisk or LogicalDisk), or a name missing from the table (add it with --names FILE)',
    'why-not-esxtop-object': 'not an esxtop disk object (Physical Disk SCSI Device)',
    'why-not-in-table': 'not in the name table: add it with --names FILE',
    'why-derived-counter': 'known, but the capture has no column for it (derived from the imported ones)',
    'why-derived-column': 'derived from the imported columns (a ratio or size per request)',
    'why-unknown-column': 'not a column this importer knows',
    'why-not-work-counter': 'not a work counter (the work imported is a process\'s IO Data, Read and Write Operations/sec and SQL Server\'s Batch Requests/sec)',
    'phase-baseline': 'baseline',
    'phase-switch': 'switch',
    'phase-warmup': 'warmup',
    'phase-measure': 'measure',
    'kind-partition': 'partition',
    'kind-from-numbers': 'from the numbers',
    'kind-view': 'another view of the same commands',
    'esxtop-counted-host': 'esxtop ({host}): the {counted} rows are counted; the {others} rows are another view of the same commands (an adapter\'s Commands/sec is the sum of its devices\'): listed in the stack, not counted',
    'esxtop-counted': 'esxtop: the {counted} rows are counted; the {others} rows are another view of the same commands (an adapter\'s Commands/sec is the sum of its devices\'): listed in the stack, not counted',
    'role-esx-device': 'an ESXi SCSI device: the storage the datastores sit on',
    'role-esx-adapter': 'an ESXi adapter: the log has no device rows, so the adapters are the view counted',
    'role-esx-other': 'an esxtop view of the devices\' commands',
    'role-esx-view': 'an esxtop {view} row: another view of the same commands as the {counted} rows: not counted',
    'kind-esx-view': 'another view of the same commands ({view} over {counted})',
    'esx-device': 'device',
    'esx-adapter': 'adapter',
    'esx-path': 'path',
    'esx-vm': 'VM or virtual disk',
    'esx-world': 'world',
  },
  fr: {
    'as-written': '{text}',
    'empty': '',
    'in-file': '{file} : {said}',
    'iostat-first-since-boot': 'le premier rapport d’iostat couvre le temps écoulé depuis le démarrage : comme tout premier échantillon, il ne donne pas d’intervalle',
    'iostat-first-kept-y': 'iostat a été lancé avec -y : son premier rapport est un intervalle comme les autres (se terminant à son heure), pas le temps depuis le démarrage, et il est conservé',
    'no-times-midnight': 'le fichier n’a pas d’horodatage : le premier rapport est placé à minuit de la date de la bannière (indiquez --start HEURE pour le vrai début)',
    'tps-split': 'la source donne tps (transferts/s) sans la répartition lectures/écritures : lectures et écritures sont estimées en partageant tps au prorata des octets lus et écrits, et utilisent toutes deux le même await',
    'sadf-each-line': 'chaque ligne est le débit sur son intervalle, qui se termine à son horodatage (la colonne interval en donne la durée) : l’intervalle de la première ligne commence avant elle, aucune ligne n’est donc écartée',
    'sar-each-line': 'chaque ligne est le débit sur l’intervalle qui se termine à son heure ; la première ligne après un en-tête commence à l’heure de l’en-tête, aucune ligne n’est donc écartée',
    'sar-restart': 'ligne {line} : le système a redémarré ; l’intervalle qui le traverse est un trou',
    'stack-one-layer': 'la pile de périphériques ({edges}) : une seule couche est comptée, les disques entiers ; une partition ou un volume sur un disque est listé, pas compté une seconde fois',
    'stack-edge': '{holder} sur {on} ({kind})',
    'perfmon-backing-only': 'la comparaison porte sur le stockage sous-jacent seul (les disques avant et après) : sous Windows, LogicalDisk et PhysicalDisk sont tous deux sous tout cache du système, ils forment donc une seule couche ; PhysicalDisk est compté, LogicalDisk ne l’est pas (indiquez --role NOM=front seulement si un cache se trouve entre les deux)',
    'perfmon-incomplete-fronts': 'pas de frontal possible, leurs compteurs sont incomplets sur le fichier : {volumes}',
    'perfmon-repeat-column': '{n} colonne répète le chemin d’une colonne précédente : la première de chacune est utilisée',
    'perfmon-repeat-columns': '{n} colonnes répètent le chemin d’une colonne précédente : la première de chacune est utilisée',
    'no-switch': 'aucune bascule indiquée (--switch-at, ou fichiers --baseline et --measure) : tout l’import est la référence',
    'stitch-repeat': '{file} ligne {line} : à {ms} ms de la dernière ligne de {other} : une répétition du même instant, non utilisée',
    'prom-resets': '{device} : {resets} remise(s) à zéro de compteur (un compteur a baissé : l’exporter ou l’hôte a redémarré) ; chacun de ces intervalles est une « remise à zéro » sans chiffres',
    'prom-win-latency': 'windows_exporter : la latence est Δ(read_latency_seconds_total) ÷ Δ(reads_total) (de même pour les écritures) ; read_seconds_total et write_seconds_total sont du temps d’occupation, pas une latence, et ne sont pas utilisés',
    'needs-interval': '--interval SECONDES : {what} n’a imprimé aucune heure (lancez-le avec -t la prochaine fois) ; indiquez l’intervalle avec lequel il tournait',
    'tz-given': '--utc-offset',
    'tz-header-bias': 'en-tête (biais = UTC − heure locale)',
    'tz-not-in-file-zone': 'absent du fichier (nom de fuseau sans biais) : heures prises comme UTC (indiquez --utc-offset MINUTES si elles étaient locales)',
    'tz-not-in-file': 'absent du fichier : heures prises comme UTC (indiquez --utc-offset MINUTES si elles étaient locales)',
    'tz-timestamps-utc': 'horodatages (UTC)',
    'tz-timestamps-offset': 'horodatages (ISO 8601 avec décalage)',
    'tz-diskstats-utc': 'heures en UTC (epoch ou ISO 8601 avec décalage)',
    'tz-uptime': 'uptime seul : l’heure absolue est --start (ou l’epoch) + uptime',
    'tz-prometheus-utc': 'les heures de Prometheus sont en UTC',
    'enc-detected': 'détecté',
    'enc-bom': 'BOM',
    'enc-given': 'indiqué',
    'enc-http': 'API HTTP (JSON)',
    'role-stacked': 'un périphérique empilé (device-mapper, md ou bcache) : ce qu’utilisent les applications',
    'role-loop': 'périphérique loop, RAM, optique ou réseau : pas un disque sous un cache',
    'role-partition': 'une partition (son disque est compté en entier)',
    'role-whole-disk': 'un disque entier : le stockage lent devant lequel se placerait un cache',
    'role-volume-on-numbers': 'un volume {kind} ; le fichier ne nomme pas ses disques : proposé sur {on} d’après les chiffres (son trafic suit celui de {on} intervalle par intervalle, r = {r} sur {n} intervalles, sans jamais le dépasser) : non compté, ses E/S sont comptées sur {on}',
    'role-volume-untracked': 'un volume {kind} ; le fichier ne nomme pas ses disques, et les chiffres d’aucun disque ne le suivent : non compté (ses E/S sont celles de ses disques) ; indiquez --role {device}=backing pour le compter à leur place',
    'role-given': 'indiqué avec --role',
    'role-win-disk': 'un disque Windows (PhysicalDisk) : les disques, comptés',
    'role-win-disk-first': 'un disque Windows (PhysicalDisk) : le stockage sous les volumes',
    'role-win-volume': 'un volume Windows (LogicalDisk)',
    'role-win-volume-same-layer-on': 'un volume Windows (LogicalDisk) sur {on} : la même couche que les disques (tous deux sous tout cache du système), non compté',
    'role-win-volume-same-layer': 'un volume Windows (LogicalDisk) : la même couche que les disques (tous deux sous tout cache du système), non compté',
    'role-win-volume-counted-on': 'un volume Windows (LogicalDisk) sur {on} : aucun PhysicalDisk dans le journal pour son hôte, les volumes sont donc comptés comme les disques',
    'role-win-volume-counted': 'un volume Windows (LogicalDisk) : aucun PhysicalDisk dans le journal pour son hôte, les volumes sont donc comptés comme les disques',
    'role-win-exporter-volume': 'un volume Windows (LogicalDisk) sur {on} : ce qu’utilisent les applications',
    'what-column': 'colonne « {name} »',
    'what-column-at': 'colonne {n} « {name} »',
    'what-counter': 'compteur « {name} »',
    'what-counter-column': 'compteur « {name} » ({n} colonne)',
    'what-counter-columns': 'compteur « {name} » ({n} colonnes)',
    'what-object-column': 'objet « {name} » ({n} colonne)',
    'what-object-columns': 'objet « {name} » ({n} colonnes)',
    'what-metric': 'métrique {name}',
    'why-not-counter-path': 'pas un chemin de compteur (\\\\HÔTE\\Objet(Instance)\\Compteur)',
    'why-total': 'la somme des autres instances, qui sont importées une par une',
    'why-not-disk-object': 'pas un objet disque (PhysicalDisk ou LogicalDisk), ou un nom absent de la table (ajoutez-le avec --names FICHIER)',
    'why-not-esxtop-object': 'pas un objet disque d’esxtop (Physical Disk SCSI Device)',
    'why-not-in-table': 'absent de la table des noms : ajoutez-le avec --names FICHIER',
    'why-derived-counter': 'connu, mais la capture n’a pas de colonne pour lui (il se déduit des compteurs importés)',
    'why-derived-column': 'déduite des colonnes importées (un ratio ou une taille par requête)',
    'why-unknown-column': 'une colonne que cet importateur ne connaît pas',
    'why-not-work-counter': 'pas un compteur de travail (le travail importé est IO Data, Read et Write Operations/sec d’un processus et Batch Requests/sec de SQL Server)',
    'phase-baseline': 'référence',
    'phase-switch': 'bascule',
    'phase-warmup': 'préchauffage',
    'phase-measure': 'mesure',
    'kind-partition': 'partition',
    'kind-from-numbers': 'd’après les chiffres',
    'kind-view': 'une autre vue des mêmes commandes',
    'esxtop-counted-host': 'esxtop ({host}) : les lignes « {counted} » sont comptées ; les lignes « {others} » sont une autre vue des mêmes commandes (les Commands/sec d’un adaptateur sont la somme de celles de ses périphériques) : listées dans la pile, non comptées',
    'esxtop-counted': 'esxtop : les lignes « {counted} » sont comptées ; les lignes « {others} » sont une autre vue des mêmes commandes (les Commands/sec d’un adaptateur sont la somme de celles de ses périphériques) : listées dans la pile, non comptées',
    'role-esx-device': 'un périphérique SCSI ESXi : le stockage sur lequel reposent les datastores',
    'role-esx-adapter': 'un adaptateur ESXi : le journal n’a pas de lignes de périphériques, les adaptateurs sont donc la vue comptée',
    'role-esx-other': 'une vue esxtop des commandes des périphériques',
    'role-esx-view': 'une ligne esxtop « {view} » : une autre vue des mêmes commandes que les lignes « {counted} » : non comptée',
    'kind-esx-view': 'une autre vue des mêmes commandes ({view} au-dessus de {counted})',
    'esx-device': 'périphérique',
    'esx-adapter': 'adaptateur',
    'esx-path': 'chemin',
    'esx-vm': 'VM ou disque virtuel',
    'esx-world': 'monde',
  },
  es: {
    'as-written': '{text}',
    'empty': '',
    'in-file': '{file}: {said}',
    'iostat-first-since-boot': 'el primer informe de iostat cubre el tiempo desde el arranque: como toda primera muestra, no da intervalo',
    'iostat-first-kept-y': 'iostat se ejecutó con -y: su primer informe es un intervalo como los demás (termina a su hora), no el tiempo desde el arranque, y se conserva',
    'no-times-midnight': 'el archivo no tiene horas: el primer informe se sitúa a medianoche de la fecha del encabezado (indique --start HORA para el inicio real)',
    'tps-split': 'la fuente da tps (transferencias/s) sin separar lecturas y escrituras: se estiman repartiendo tps en proporción a los bytes leídos y escritos, y ambas usan el mismo await',
    'sadf-each-line': 'cada línea es la tasa de su intervalo, que termina en su marca de tiempo (la columna interval da su duración): el intervalo de la primera línea empieza antes, así que no se descarta ninguna línea',
    'sar-each-line': 'cada línea es la tasa del intervalo que termina a su hora; la primera línea tras un encabezado empieza a la hora del encabezado, así que no se descarta ninguna línea',
    'sar-restart': 'línea {line}: el sistema se reinició; el intervalo que lo atraviesa es un hueco',
    'stack-one-layer': 'la pila de dispositivos ({edges}): se cuenta una sola capa, los discos enteros; una partición o un volumen sobre un disco se lista, pero no se vuelve a contar',
    'stack-edge': '{holder} sobre {on} ({kind})',
    'perfmon-backing-only': 'la comparación es solo del almacenamiento subyacente (los discos antes y después): en Windows, LogicalDisk y PhysicalDisk están ambos por debajo de cualquier caché del sistema, así que son una sola capa; se cuenta PhysicalDisk y no LogicalDisk (indique --role NOMBRE=front solo si hay una caché entre ambos)',
    'perfmon-incomplete-fronts': 'no pueden ser frontales, sus contadores están incompletos en el archivo: {volumes}',
    'perfmon-repeat-column': '{n} columna repite la ruta de una columna anterior: se usa la primera de cada una',
    'perfmon-repeat-columns': '{n} columnas repiten la ruta de una columna anterior: se usa la primera de cada una',
    'no-switch': 'no se indicó cambio (--switch-at, o archivos --baseline y --measure): toda la importación es la referencia',
    'stitch-repeat': '{file} línea {line}: a {ms} ms de la última fila de {other}: una repetición del mismo instante, no se usa',
    'prom-resets': '{device}: {resets} reinicio(s) de contador (un contador bajó: se reinició el exporter o el host); cada uno de esos intervalos es un «reinicio» sin cifras',
    'prom-win-latency': 'windows_exporter: la latencia es Δ(read_latency_seconds_total) ÷ Δ(reads_total) (y lo mismo para escrituras); read_seconds_total y write_seconds_total son tiempo ocupado, no latencia, y no se usan',
    'needs-interval': '--interval SEGUNDOS: {what} no imprimió horas (ejecútelo con -t la próxima vez); indique el intervalo con el que se ejecutó',
    'tz-given': '--utc-offset',
    'tz-header-bias': 'encabezado (sesgo = UTC − hora local)',
    'tz-not-in-file-zone': 'no está en el archivo (nombre de zona sin sesgo): horas tomadas como UTC (indique --utc-offset MINUTOS si eran locales)',
    'tz-not-in-file': 'no está en el archivo: horas tomadas como UTC (indique --utc-offset MINUTOS si eran locales)',
    'tz-timestamps-utc': 'marcas de tiempo (UTC)',
    'tz-timestamps-offset': 'marcas de tiempo (ISO 8601 con desfase)',
    'tz-diskstats-utc': 'horas en UTC (epoch o ISO 8601 con desfase)',
    'tz-uptime': 'solo uptime: la hora absoluta es --start (o el epoch) + uptime',
    'tz-prometheus-utc': 'las horas de Prometheus están en UTC',
    'enc-detected': 'detectada',
    'enc-bom': 'BOM',
    'enc-given': 'indicada',
    'enc-http': 'API HTTP (JSON)',
    'role-stacked': 'un dispositivo apilado (device-mapper, md o bcache): lo que usan las aplicaciones',
    'role-loop': 'dispositivo loop, RAM, óptico o de red: no es un disco bajo una caché',
    'role-partition': 'una partición (su disco se cuenta entero)',
    'role-whole-disk': 'un disco entero: el almacenamiento lento delante del cual iría una caché',
    'role-volume-on-numbers': 'un volumen {kind}; el archivo no nombra sus discos: propuesto sobre {on} según las cifras (su tráfico sigue al de {on} intervalo a intervalo, r = {r} en {n} intervalos, sin superarlo nunca): no se cuenta, sus E/S se cuentan en {on}',
    'role-volume-untracked': 'un volumen {kind}; el archivo no nombra sus discos y las cifras de ningún disco lo siguen: no se cuenta (sus E/S son las de sus discos); indique --role {device}=backing para contarlo en lugar de ellos',
    'role-given': 'indicado con --role',
    'role-win-disk': 'un disco de Windows (PhysicalDisk): las unidades, contadas',
    'role-win-disk-first': 'un disco de Windows (PhysicalDisk): el almacenamiento bajo los volúmenes',
    'role-win-volume': 'un volumen de Windows (LogicalDisk)',
    'role-win-volume-same-layer-on': 'un volumen de Windows (LogicalDisk) sobre {on}: la misma capa que los discos (ambos bajo cualquier caché del sistema), no se cuenta',
    'role-win-volume-same-layer': 'un volumen de Windows (LogicalDisk): la misma capa que los discos (ambos bajo cualquier caché del sistema), no se cuenta',
    'role-win-volume-counted-on': 'un volumen de Windows (LogicalDisk) sobre {on}: ningún PhysicalDisk en el registro para su host, así que los volúmenes se cuentan como las unidades',
    'role-win-volume-counted': 'un volumen de Windows (LogicalDisk): ningún PhysicalDisk en el registro para su host, así que los volúmenes se cuentan como las unidades',
    'role-win-exporter-volume': 'un volumen de Windows (LogicalDisk) sobre {on}: lo que usan las aplicaciones',
    'what-column': 'columna «{name}»',
    'what-column-at': 'columna {n} «{name}»',
    'what-counter': 'contador «{name}»',
    'what-counter-column': 'contador «{name}» ({n} columna)',
    'what-counter-columns': 'contador «{name}» ({n} columnas)',
    'what-object-column': 'objeto «{name}» ({n} columna)',
    'what-object-columns': 'objeto «{name}» ({n} columnas)',
    'what-metric': 'métrica {name}',
    'why-not-counter-path': 'no es una ruta de contador (\\\\HOST\\Objeto(Instancia)\\Contador)',
    'why-total': 'la suma de las demás instancias, que se importan una a una',
    'why-not-disk-object': 'no es un objeto de disco (PhysicalDisk o LogicalDisk), o es un nombre que falta en la tabla (añádalo con --names ARCHIVO)',
    'why-not-esxtop-object': 'no es un objeto de disco de esxtop (Physical Disk SCSI Device)',
    'why-not-in-table': 'no está en la tabla de nombres: añádalo con --names ARCHIVO',
    'why-derived-counter': 'conocido, pero la captura no tiene columna para él (se deriva de los importados)',
    'why-derived-column': 'derivada de las columnas importadas (una razón o un tamaño por petición)',
    'why-unknown-column': 'una columna que este importador no conoce',
    'why-not-work-counter': 'no es un contador de trabajo (el trabajo importado es IO Data, Read y Write Operations/sec de un proceso y Batch Requests/sec de SQL Server)',
    'phase-baseline': 'referencia',
    'phase-switch': 'cambio',
    'phase-warmup': 'calentamiento',
    'phase-measure': 'medición',
    'kind-partition': 'partición',
    'kind-from-numbers': 'según las cifras',
    'kind-view': 'otra vista de los mismos comandos',
    'esxtop-counted-host': 'esxtop ({host}): se cuentan las filas «{counted}»; las filas «{others}» son otra vista de los mismos comandos (los Commands/sec de un adaptador son la suma de los de sus dispositivos): se listan en la pila, no se cuentan',
    'esxtop-counted': 'esxtop: se cuentan las filas «{counted}»; las filas «{others}» son otra vista de los mismos comandos (los Commands/sec de un adaptador son la suma de los de sus dispositivos): se listan en la pila, no se cuentan',
    'role-esx-device': 'un dispositivo SCSI de ESXi: el almacenamiento sobre el que están los datastores',
    'role-esx-adapter': 'un adaptador de ESXi: el registro no tiene filas de dispositivos, así que los adaptadores son la vista que se cuenta',
    'role-esx-other': 'una vista de esxtop de los comandos de los dispositivos',
    'role-esx-view': 'una fila «{view}» de esxtop: otra vista de los mismos comandos que las filas «{counted}»: no se cuenta',
    'kind-esx-view': 'otra vista de los mismos comandos ({view} sobre {counted})',
    'esx-device': 'dispositivo',
    'esx-adapter': 'adaptador',
    'esx-path': 'ruta',
    'esx-vm': 'VM o disco virtual',
    'esx-world': 'mundo',
  },
  ru: {
    'as-written': '{text}',
    'empty': '',
    'in-file': '{file}: {said}',
    'iostat-first-since-boot': 'первый отчёт iostat охватывает время с момента загрузки: как и любой первый замер, интервала он не даёт',
    'iostat-first-kept-y': 'iostat запущен с -y: его первый отчёт — такой же интервал, как остальные (заканчивается в его время), а не время с загрузки, и он сохранён',
    'no-times-midnight': 'в файле нет времени: первый отчёт поставлен на полночь даты из заголовка (для настоящего начала укажите --start ВРЕМЯ)',
    'tps-split': 'источник даёт tps (передач/с) без разделения на чтение и запись: чтения и записи оценены делением tps пропорционально прочитанным и записанным байтам, и для обоих взят один await',
    'sadf-each-line': 'каждая строка — скорость за её интервал, заканчивающийся в её метку времени (длину даёт столбец interval): интервал первой строки начинается раньше неё, так что ни одна строка не отброшена',
    'sar-each-line': 'каждая строка — скорость за интервал, заканчивающийся в её время; первая строка после заголовка начинается во время заголовка, так что ни одна строка не отброшена',
    'sar-restart': 'строка {line}: система перезагружалась; интервал через перезагрузку — пропуск',
    'stack-one-layer': 'стек устройств ({edges}): учитывается один уровень — целые диски; раздел или том на диске показан, но повторно не учитывается',
    'stack-edge': '{holder} на {on} ({kind})',
    'perfmon-backing-only': 'сравнение только по нижележащему хранилищу (диски до и после): в Windows LogicalDisk и PhysicalDisk оба находятся ниже любого кэша в ОС, то есть это один уровень; учитывается PhysicalDisk, а LogicalDisk — нет (указывайте --role ИМЯ=front, только если между ними стоит кэш)',
    'perfmon-incomplete-fronts': 'не могут быть фронтальными: их счётчики неполны в файле: {volumes}',
    'perfmon-repeat-column': 'столбцов, повторяющих путь предыдущего: {n}; используется первый из каждых',
    'perfmon-repeat-columns': 'столбцов, повторяющих путь предыдущего: {n}; используется первый из каждых',
    'no-switch': 'момент включения не задан (--switch-at или файлы --baseline и --measure): весь импорт — базовая линия',
    'stitch-repeat': '{file}, строка {line}: {ms} мс от последней строки {other}: повтор того же момента, не используется',
    'prom-resets': '{device}: сбросов счётчиков: {resets} (счётчик уменьшился: перезапускался экспортер или хост); каждый такой интервал — «сброс» без значений',
    'prom-win-latency': 'windows_exporter: задержка — Δ(read_latency_seconds_total) ÷ Δ(reads_total) (для записи так же); read_seconds_total и write_seconds_total — время занятости, а не задержка, и не используются',
    'needs-interval': '--interval СЕКУНДЫ: {what} не выводил время (в следующий раз запускайте с -t); укажите интервал, с которым он работал',
    'tz-given': '--utc-offset',
    'tz-header-bias': 'заголовок (смещение = UTC − местное время)',
    'tz-not-in-file-zone': 'в файле нет (название пояса без смещения): время принято за UTC (укажите --utc-offset МИНУТЫ, если оно местное)',
    'tz-not-in-file': 'в файле нет: время принято за UTC (укажите --utc-offset МИНУТЫ, если оно местное)',
    'tz-timestamps-utc': 'метки времени (UTC)',
    'tz-timestamps-offset': 'метки времени (ISO 8601 со смещением)',
    'tz-diskstats-utc': 'время в UTC (epoch или ISO 8601 со смещением)',
    'tz-uptime': 'только uptime: абсолютное время — --start (или epoch) + uptime',
    'tz-prometheus-utc': 'время Prometheus — в UTC',
    'enc-detected': 'определена',
    'enc-bom': 'BOM',
    'enc-given': 'задана',
    'enc-http': 'HTTP API (JSON)',
    'role-stacked': 'составное устройство (device-mapper, md или bcache): с ним работают приложения',
    'role-loop': 'устройство loop, RAM, оптическое или сетевое: не диск под кэшем',
    'role-partition': 'раздел (его диск учитывается целиком)',
    'role-whole-disk': 'целый диск: медленное хранилище, перед которым встал бы кэш',
    'role-volume-on-numbers': 'том {kind}; файл не называет его дисков: по цифрам он отнесён к {on} (его трафик следует за трафиком {on} интервал за интервалом, r = {r} на {n} интервалах, и никогда его не превышает): не учитывается, его ввод-вывод учтён на {on}',
    'role-volume-untracked': 'том {kind}; файл не называет его дисков, и цифры ни одного диска за ним не следуют: не учитывается (его ввод-вывод — это ввод-вывод его дисков); укажите --role {device}=backing, чтобы учитывать его вместо них',
    'role-given': 'задано через --role',
    'role-win-disk': 'диск Windows (PhysicalDisk): накопители, учитываются',
    'role-win-disk-first': 'диск Windows (PhysicalDisk): хранилище под томами',
    'role-win-volume': 'том Windows (LogicalDisk)',
    'role-win-volume-same-layer-on': 'том Windows (LogicalDisk) на {on}: тот же уровень, что и диски (оба ниже любого кэша в ОС), не учитывается',
    'role-win-volume-same-layer': 'том Windows (LogicalDisk): тот же уровень, что и диски (оба ниже любого кэша в ОС), не учитывается',
    'role-win-volume-counted-on': 'том Windows (LogicalDisk) на {on}: в журнале нет PhysicalDisk для его хоста, поэтому тома учитываются как накопители',
    'role-win-volume-counted': 'том Windows (LogicalDisk): в журнале нет PhysicalDisk для его хоста, поэтому тома учитываются как накопители',
    'role-win-exporter-volume': 'том Windows (LogicalDisk) на {on}: с ним работают приложения',
    'what-column': 'столбец «{name}»',
    'what-column-at': 'столбец {n} «{name}»',
    'what-counter': 'счётчик «{name}»',
    'what-counter-column': 'счётчик «{name}» (столбцов: {n})',
    'what-counter-columns': 'счётчик «{name}» (столбцов: {n})',
    'what-object-column': 'объект «{name}» (столбцов: {n})',
    'what-object-columns': 'объект «{name}» (столбцов: {n})',
    'what-metric': 'метрика {name}',
    'why-not-counter-path': 'не путь счётчика (\\\\ХОСТ\\Объект(Экземпляр)\\Счётчик)',
    'why-total': 'сумма остальных экземпляров, которые импортированы по отдельности',
    'why-not-disk-object': 'не дисковый объект (PhysicalDisk или LogicalDisk) или имя, которого нет в таблице (добавьте его через --names ФАЙЛ)',
    'why-not-esxtop-object': 'не дисковый объект esxtop (Physical Disk SCSI Device)',
    'why-not-in-table': 'нет в таблице имён: добавьте его через --names ФАЙЛ',
    'why-derived-counter': 'известен, но в файле захвата для него нет столбца (он выводится из импортированных)',
    'why-derived-column': 'выводится из импортированных столбцов (отношение или размер на запрос)',
    'why-unknown-column': 'столбец, который этот импорт не знает',
    'why-not-work-counter': 'не счётчик работы (импортируемая работа — IO Data, Read и Write Operations/sec процесса и Batch Requests/sec SQL Server)',
    'phase-baseline': 'базовая линия',
    'phase-switch': 'включение',
    'phase-warmup': 'прогрев',
    'phase-measure': 'измерение',
    'kind-partition': 'раздел',
    'kind-from-numbers': 'по цифрам',
    'kind-view': 'другое представление тех же команд',
    'esxtop-counted-host': 'esxtop ({host}): учитываются строки «{counted}»; строки «{others}» — другое представление тех же команд (Commands/sec адаптера — сумма значений его устройств): они показаны в стеке и не учитываются',
    'esxtop-counted': 'esxtop: учитываются строки «{counted}»; строки «{others}» — другое представление тех же команд (Commands/sec адаптера — сумма значений его устройств): они показаны в стеке и не учитываются',
    'role-esx-device': 'SCSI-устройство ESXi: хранилище, на котором лежат datastore',
    'role-esx-adapter': 'адаптер ESXi: в журнале нет строк устройств, поэтому учитываются адаптеры',
    'role-esx-other': 'представление esxtop команд устройств',
    'role-esx-view': 'строка esxtop «{view}»: другое представление тех же команд, что и строки «{counted}»: не учитывается',
    'kind-esx-view': 'другое представление тех же команд ({view} над {counted})',
    'esx-device': 'устройство',
    'esx-adapter': 'адаптер',
    'esx-path': 'путь',
    'esx-vm': 'ВМ или виртуальный диск',
    'esx-world': 'world (мир VMkernel)',
  },
};
