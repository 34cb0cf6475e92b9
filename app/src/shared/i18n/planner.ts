import { HOURS_PER_YEAR, type ConfigResult, type LineItem, type PlanError, type PlanResult, type SavingsSensitivity, type Scenario, type TornadoInput } from '@cacheproof/engine/plan';
import type { Catalog, Lang } from './types.ts';
import { translate } from './types.ts';
import { formatTcoDecimal, formatTcoNumber, tco, type TcoKey } from './tco.ts';
import { fmtBytes, fmtDecimal, fmtNumber, fmtPercentUpTo } from './numbers.ts';

/**
 * Strings of the Planner screen (namespace `planner`). The planner also reuses the `tco`
 * namespace for what it shares with `cacheproof tco`: line-item names and details, sizing and
 * drive-life sentences, comparison headers and the field-named error sentences.
 */
export type PlannerKey =
  | 'nav.results' | 'nav.planner' | 'nav.label'
  | 'title' | 'intro' | 'loading' | 'loadFailed' | 'savedNote' | 'export' | 'exportHelp' | 'exportDisabled' | 'reset'
  | 'sec.workload' | 'sec.energy' | 'sec.drives' | 'sec.configs' | 'sec.results' | 'sec.life' | 'sec.charts' | 'sec.lines'
  | 'f.years' | 'h.years' | 'f.basis' | 'h.basis' | 'f.iopsTarget' | 'h.iopsTarget' | 'f.readShare' | 'h.readShare'
  | 'f.requestSize' | 'h.requestSize' | 'f.capacity' | 'h.capacity' | 'f.capGrowth' | 'h.capGrowth' | 'f.iopsGrowth' | 'h.iopsGrowth'
  | 'f.sizeFor' | 'h.sizeFor' | 'opt.finalYear' | 'opt.firstYear'
  | 'f.energyMode' | 'h.energyMode' | 'opt.metered' | 'opt.perDrive'
  | 'f.usdPerKwh' | 'h.usdPerKwh' | 'f.pue' | 'h.pue' | 'f.usdPerDrive' | 'h.usdPerDrive' | 'f.reference' | 'h.reference'
  | 'f.drivePrice' | 'f.driveIops' | 'f.driveCapacity' | 'f.driveWatts' | 'f.driveAfr' | 'h.drives' | 'col.drive'
  | 'f.backingDrive' | 'h.backingDrive' | 'f.raid' | 'h.raid' | 'opt.raid' | 'opt.raidCustom' | 'f.groupSize' | 'h.groupSize'
  | 'f.writePenalty' | 'h.writePenalty' | 'f.redundant' | 'h.redundant' | 'f.count' | 'h.count'
  | 'f.baseCost' | 'h.baseCost' | 'f.support' | 'h.support'
  | 'cacheSsdTitle' | 'cacheRamTitle' | 'noCache' | 'f.cacheDrive' | 'h.cacheDrive' | 'f.cacheCount' | 'h.cacheCount'
  | 'f.cacheMode' | 'h.cacheMode' | 'f.readHit' | 'h.readHit' | 'f.writeHit' | 'h.writeHit' | 'hitSource' | 'f.license' | 'h.license'
  | 'unit.years' | 'unit.iops' | 'unit.percent' | 'unit.percentPerYear' | 'unit.kib' | 'unit.tb' | 'unit.usd' | 'unit.usdPerKwh'
  | 'unit.factor' | 'unit.usdPerDriveYear' | 'unit.usdPerYear' | 'unit.watts' | 'unit.drives'
  | 'fieldRef' | 'lastValid' | 'noResultYet'
  | 'chart.costs' | 'chart.cumulative' | 'chart.spindles' | 'axis.config' | 'axis.usd' | 'axis.year' | 'axis.iopsTarget' | 'axis.drives'
  | 'cmpCaption' | 'summary' | 'sum.total' | 'sum.cumulative' | 'sum.spindles' | 'sum.spindlesPoint' | 'sum.noFit'
  | 'life.config' | 'life.backing' | 'life.cache' | 'life.none'
  | 'addConfig' | 'dupConfig' | 'removeConfig' | 'lastConfig' | 'newConfig' | 'copyOf' | 'addSsdCache' | 'addRamCache' | 'removeCache' | 'configActions'
  | 'sec.catalog' | 'f.catalog' | 'h.catalog' | 'addFromCatalog' | 'addTyped' | 'newDrive' | 'removeDrive' | 'driveInUse'
  | 'col.figure' | 'col.value' | 'col.source' | 'col.date' | 'catalogFailed' | 'catalogLoading' | 'fig.absent' | 'fig.examplePrice' | 'catalogCaption'
  | 'fig.rpm' | 'fig.capacityBytes' | 'fig.randomReadIops4k' | 'fig.randomWriteIops4k' | 'fig.iops' | 'fig.seqReadMBps' | 'fig.watts' | 'fig.maxWatts' | 'fig.idleWatts'
  | 'fig.workloadTbPerYear' | 'fig.enduranceTbw' | 'fig.dwpd' | 'fig.warrantyYears' | 'fig.mtbfHours' | 'fig.afr' | 'fig.priceUsd'
  | 'import' | 'importHelp' | 'importFailed' | 'importNotJson' | 'imported' | 'saveFailed' | 'problems'
  | 'seg.hdd-7.2k-nearline' | 'seg.hdd-10k' | 'seg.ssd-sata-read-intensive' | 'seg.ssd-sata-mixed-use' | 'seg.ssd-nvme'
  | 'chart.tornado' | 'axis.savings' | 'tornado.low' | 'tornado.high' | 'tornado.none'
  | 'f.ramSize' | 'h.ramSize' | 'unit.gb' | 'ramPrice' | 'ramBasis.engine' | 'ramBasis.prediction' | 'ramBasis.footprint' | 'ramBasis.bytes-moved' | 'ramBasis.none';

export const planner: Catalog<PlannerKey> = {
  en: {
    'f.ramSize': 'Cache size', 'h.ramSize': 'Size of the RAM cache: its purchase and power follow it, per GB of the catalog module.', 'unit.gb': 'GB',
    'ramPrice': 'Priced per GiB from the catalog module “{module}”: {usdPerGb} USD and {wattsPerGb} W per GiB (DIMM GB are binary), so {cost} USD and {watts} W.',
    'ramBasis.engine': 'Prefilled with {size}: the size the cache engine reported for its cache in this capture.',
    'ramBasis.prediction': 'Prefilled with {size}: the smallest size at which the trace’s prediction reaches the measured read hit share.',
    'ramBasis.footprint': 'Prefilled with {size}: the trace’s footprint, every block the baseline touched (no read hit share was measured, or the prediction does not reach it).',
    'ramBasis.bytes-moved': 'Prefilled with {size}: the bytes read and written on the backing devices in the baseline window, at most their capacity — an upper bound of the working set (no trace and no engine size to go on).',
    'ramBasis.none': 'This size was typed or comes from the scenario file: it is not a measurement.',
    'nav.results': 'Results', 'nav.planner': 'Planner', 'nav.label': 'Screens',
    title: 'TCO and drive-life planner',
    intro: 'Prefilled from this analysis (measured IOPS, read share, request size, capacity and cache hit shares). Change any input: the comparison is recomputed at once. Money is in US dollars; a TB is 10¹² bytes.',
    loading: 'Preparing a scenario from the analysis…',
    loadFailed: 'The scenario could not be prefilled from this analysis.',
    savedNote: 'Valid changes are saved with this analysis (in the app\'s data folder, so a reload or a reopened app finds them); the report prints this scenario.',
    export: 'Export scenario (JSON)',
    exportHelp: 'Downloads the scenario as a .tco.json file that `cacheproof tco FILE` reads.',
    exportDisabled: 'Correct the input named above to export the scenario.',
    reset: 'Reset to the measured scenario',
    'sec.workload': 'Workload', 'sec.energy': 'Power and cooling', 'sec.drives': 'Drive models', 'sec.configs': 'Configurations',
    'sec.results': 'Results', 'sec.life': 'Drive life', 'sec.charts': 'Charts', 'sec.lines': 'Line items per configuration',
    'f.years': 'Period', 'h.years': 'Years the configurations are compared over (1–30).',
    'f.basis': 'IOPS basis', 'h.basis': 'Which figure of the measured workload is the front-end IOPS target.',
    'f.iopsTarget': 'IOPS target ({basis})', 'h.iopsTarget': 'Front-end I/Os per second the storage must sustain today.',
    'f.readShare': 'Read share', 'h.readShare': 'Share of front-end I/Os that are reads.',
    'f.requestSize': 'Average request size', 'h.requestSize': 'Mean size of one I/O (1 KiB = 1,024 bytes).',
    'f.capacity': 'Capacity needed today', 'h.capacity': 'Usable capacity, after RAID overhead.',
    'f.capGrowth': 'Capacity growth', 'h.capGrowth': 'Compound growth of the capacity per year.',
    'f.iopsGrowth': 'IOPS growth', 'h.iopsGrowth': 'Compound growth of the IOPS target per year.',
    'f.sizeFor': 'Size for', 'h.sizeFor': 'The year whose demand every configuration is sized for.',
    'opt.finalYear': 'the final year (bought once, growth covered)', 'opt.firstYear': 'the first year only (growth not covered)',
    'f.energyMode': 'Power priced by', 'h.energyMode': 'Metered energy counts drives, enclosures and systems; a cost per drive counts drives only.',
    'opt.metered': 'energy price × PUE', 'opt.perDrive': 'a yearly cost per drive',
    'f.usdPerKwh': 'Electricity price', 'h.usdPerKwh': 'What one kilowatt-hour costs.',
    'f.pue': 'PUE (cooling factor)', 'h.pue': 'Power usage effectiveness: total facility power ÷ IT power (1 = no cooling overhead).',
    'f.usdPerDrive': 'Power cost per drive', 'h.usdPerDrive': 'Power and cooling of one drive for one year.',
    'f.reference': 'Savings measured against', 'h.reference': 'The configuration the others are compared with.',
    'f.drivePrice': 'Price', 'f.driveIops': 'IOPS per drive', 'f.driveCapacity': 'Capacity', 'f.driveWatts': 'Power', 'f.driveAfr': 'AFR',
    'h.drives': 'Per drive: purchase price, sustained small random IOPS, raw capacity, operating power and annualized failure rate.',
    'col.drive': 'Drive model',
    'f.backingDrive': 'Drive model', 'h.backingDrive': 'The drives that hold the data.',
    'f.raid': 'RAID level', 'h.raid': 'Write penalty: RAID 0: 1, RAID 1/10: 2, RAID 5: 4, RAID 6: 6.',
    'opt.raid': 'RAID {level}', 'opt.raidCustom': 'custom',
    'f.groupSize': 'Drives per RAID group', 'h.groupSize': 'RAID 1: 2; RAID 10: even, at least 4; RAID 5: at least 3; RAID 6: at least 4.',
    'f.writePenalty': 'Write penalty', 'h.writePenalty': 'Back-end I/Os per front-end write (custom RAID).',
    'f.redundant': 'Redundant drives per group', 'h.redundant': 'Drives of each group that hold redundancy, not data (custom RAID).',
    'f.count': 'Drive count', 'h.count': 'Leave empty to let the model size it; a typed count is whole RAID groups.',
    'f.baseCost': 'Base system', 'h.baseCost': 'Controller, head and chassis, paid once.',
    'f.support': 'Support', 'h.support': 'Support contract per year.',
    cacheSsdTitle: 'SSD cache', cacheRamTitle: 'RAM cache', noCache: 'No cache in this configuration.',
    'f.cacheDrive': 'Cache SSD model', 'h.cacheDrive': 'An SSD with an endurance rating.',
    'f.cacheCount': 'Cache SSDs', 'h.cacheCount': 'Number of cache SSDs (whole RAID groups).',
    'f.cacheMode': 'Write handling', 'h.cacheMode': 'Write-back absorbs writes in the cache; write-through sends every write to the drives too.',
    'f.readHit': 'Read hit share', 'h.readHit': 'Share of reads served by the cache.',
    'f.writeHit': 'Write hit share', 'h.writeHit': 'Share of writes the cache absorbs (write-back only).',
    hitSource: 'Hit shares: {source}.',
    'f.license': 'Cache licence', 'h.license': 'Cache software licence, paid once.',
    'unit.years': 'years', 'unit.iops': 'IOPS', 'unit.percent': '%', 'unit.percentPerYear': '% per year', 'unit.kib': 'KiB', 'unit.tb': 'TB',
    'unit.usd': 'USD', 'unit.usdPerKwh': 'USD per kWh', 'unit.factor': '×', 'unit.usdPerDriveYear': 'USD per drive per year',
    'unit.usdPerYear': 'USD per year', 'unit.watts': 'W', 'unit.drives': 'drives',
    fieldRef: '{label} ({path})',
    lastValid: 'The results below are those of the last valid input.',
    noResultYet: 'No valid result yet.',
    'chart.costs': 'Total cost over {years} years by configuration',
    'chart.cumulative': 'Cumulative cost over the years',
    'chart.spindles': 'Backing drives needed as the IOPS target varies',
    'axis.config': 'Configuration', 'axis.usd': 'Cost (USD)', 'axis.year': 'Year (0 = day one)',
    'axis.iopsTarget': 'Front-end IOPS target today (IOPS)', 'axis.drives': 'Backing drives (count)',
    cmpCaption: 'Comparison against {label} (USD over the period)',
    summary: 'Chart summary: {text}',
    'sum.total': '{label}: {total} USD',
    'sum.cumulative': '{label}: {start} USD on day one, {end} USD after {years} years',
    'sum.spindles': '{label}: {points}',
    'sum.spindlesPoint': '{drives} drives at {iops} IOPS',
    'sum.noFit': 'does not fit at {iops} IOPS',
    'life.config': 'Configuration', 'life.backing': 'Backing drives', 'life.cache': 'Cache SSDs', 'life.none': '—',
    addConfig: 'Add a configuration', dupConfig: 'Duplicate', removeConfig: 'Remove', lastConfig: 'A scenario needs at least one configuration.',
    newConfig: 'Configuration {n}', copyOf: '{label} (copy)', addSsdCache: 'Add an SSD cache', addRamCache: 'Add a RAM cache', removeCache: 'Remove the cache',
    configActions: 'Actions on {label}',
    'sec.catalog': 'Add a drive model', 'f.catalog': 'From the drive catalog', 'h.catalog': 'Real drive models; every figure with its source and date. Prices are examples: replace them with a quote.',
    addFromCatalog: 'Add this drive', addTyped: 'Add a drive to type in', newDrive: 'New drive {n}', removeDrive: 'Remove',
    driveInUse: '{label} is used by a configuration: choose another drive there first.',
    'col.figure': 'Figure', 'col.value': 'Value', 'col.source': 'Source', 'col.date': 'Date',
    catalogFailed: 'The drive catalog could not be read: {detail}', catalogLoading: 'Loading the drive catalog…',
    'fig.absent': 'not given', 'fig.examplePrice': 'example price: replace it with a quote', catalogCaption: 'Figures of {label} and their sources',
    'fig.rpm': 'Rotation speed (rpm)', 'fig.capacityBytes': 'Capacity', 'fig.randomReadIops4k': '4 KiB random read (IOPS)', 'fig.randomWriteIops4k': '4 KiB random write (IOPS)',
    'fig.iops': 'Sizing IOPS', 'fig.seqReadMBps': 'Sequential read (MB/s)', 'fig.watts': 'Average power (W)', 'fig.maxWatts': 'Maximum power (W)', 'fig.idleWatts': 'Idle power (W)',
    'fig.workloadTbPerYear': 'Rated workload (TB/year)', 'fig.enduranceTbw': 'Endurance (TBW)', 'fig.dwpd': 'Drive writes per day', 'fig.warrantyYears': 'Warranty (years)',
    'fig.mtbfHours': 'MTBF (hours)', 'fig.afr': 'AFR (%/year)', 'fig.priceUsd': 'Price (USD)',
    import: 'Import scenario (JSON)', importHelp: 'Opens a .tco.json file, the format `cacheproof tco FILE` reads; it replaces the scenario on screen.',
    importFailed: '{file} was not imported: {sentence}', importNotJson: '{file} was not imported: it is not JSON ({detail}). Choose a scenario file (*.tco.json).',
    imported: 'Imported {file}.', saveFailed: 'The scenario could not be saved with the analysis: {detail}', problems: '{count} fields to correct:',
    'chart.tornado': 'Savings of {label} against {ref} with each input at −{pct}% and +{pct}%', 'axis.savings': 'Savings over {years} years (USD)',
    'tornado.low': 'Input −{pct}%', 'tornado.high': 'Input +{pct}%', 'tornado.none': 'The sensitivity needs a second configuration to compare with the reference.',
    'seg.hdd-7.2k-nearline': 'Nearline HDD, 7,200 rpm', 'seg.hdd-10k': 'HDD, 10,000 rpm', 'seg.ssd-sata-read-intensive': 'SATA SSD, read-intensive', 'seg.ssd-sata-mixed-use': 'SATA SSD, mixed use', 'seg.ssd-nvme': 'NVMe SSD',
  },
  fr: {
    'f.ramSize': 'Taille du cache', 'h.ramSize': 'Taille du cache en RAM : son prix d’achat et sa puissance la suivent, par Go du module du catalogue.', 'unit.gb': 'Go',
    'ramPrice': 'Prix par Gio du module du catalogue « {module} » : {usdPerGb} USD et {wattsPerGb} W par Gio (les Go des barrettes sont binaires), soit {cost} USD et {watts} W.',
    'ramBasis.engine': 'Prérempli avec {size} : la taille que le moteur de cache a indiquée pour son cache dans cette capture.',
    'ramBasis.prediction': 'Prérempli avec {size} : la plus petite taille à laquelle la prédiction de la trace atteint la part de lectures servies mesurée.',
    'ramBasis.footprint': 'Prérempli avec {size} : l’empreinte de la trace, chaque bloc touché pendant la référence (aucune part de lectures servies mesurée, ou la prédiction ne l’atteint pas).',
    'ramBasis.bytes-moved': 'Prérempli avec {size} : les octets lus et écrits sur les disques de stockage pendant la fenêtre de référence, au plus leur capacité — une borne haute de l’ensemble de travail (ni trace ni taille donnée par le moteur).',
    'ramBasis.none': 'Cette taille a été saisie ou vient du fichier de scénario : ce n’est pas une mesure.',
    'nav.results': 'Résultats', 'nav.planner': 'Planificateur', 'nav.label': 'Écrans',
    title: 'Planificateur de coût total et de durée de vie des disques',
    intro: 'Prérempli depuis cette analyse (IOPS mesurées, part de lectures, taille des requêtes, capacité et taux de succès du cache). Modifiez n’importe quelle valeur : la comparaison est recalculée aussitôt. Montants en dollars US ; un To vaut 10¹² octets.',
    loading: 'Préparation d’un scénario depuis l’analyse…',
    loadFailed: 'Le scénario n’a pas pu être prérempli depuis cette analyse.',
    savedNote: 'Les modifications valides sont enregistrées avec cette analyse (dans le dossier de données de l’application : un rechargement ou une réouverture les retrouve) ; le rapport imprime ce scénario.',
    export: 'Exporter le scénario (JSON)',
    exportHelp: 'Télécharge le scénario dans un fichier .tco.json que lit `cacheproof tco FICHIER`.',
    exportDisabled: 'Corrigez la valeur signalée ci-dessus pour exporter le scénario.',
    reset: 'Revenir au scénario mesuré',
    'sec.workload': 'Charge', 'sec.energy': 'Énergie et refroidissement', 'sec.drives': 'Modèles de disques', 'sec.configs': 'Configurations',
    'sec.results': 'Résultats', 'sec.life': 'Durée de vie des disques', 'sec.charts': 'Graphiques', 'sec.lines': 'Postes par configuration',
    'f.years': 'Période', 'h.years': 'Nombre d’années de la comparaison (1 à 30).',
    'f.basis': 'Base des IOPS', 'h.basis': 'Quel chiffre de la charge mesurée sert d’objectif d’IOPS en frontal.',
    'f.iopsTarget': 'Objectif d’IOPS ({basis})', 'h.iopsTarget': 'E/S par seconde que le stockage doit tenir aujourd’hui.',
    'f.readShare': 'Part de lectures', 'h.readShare': 'Part des E/S frontales qui sont des lectures.',
    'f.requestSize': 'Taille moyenne des requêtes', 'h.requestSize': 'Taille moyenne d’une E/S (1 Kio = 1 024 octets).',
    'f.capacity': 'Capacité nécessaire aujourd’hui', 'h.capacity': 'Capacité utile, après le surcoût RAID.',
    'f.capGrowth': 'Croissance de la capacité', 'h.capGrowth': 'Croissance composée de la capacité par an.',
    'f.iopsGrowth': 'Croissance des IOPS', 'h.iopsGrowth': 'Croissance composée de l’objectif d’IOPS par an.',
    'f.sizeFor': 'Dimensionner pour', 'h.sizeFor': 'L’année dont la demande sert à dimensionner chaque configuration.',
    'opt.finalYear': 'la dernière année (achat unique, croissance couverte)', 'opt.firstYear': 'la première année seulement (croissance non couverte)',
    'f.energyMode': 'Énergie comptée par', 'h.energyMode': 'L’énergie mesurée compte disques, tiroirs et systèmes ; un coût par disque ne compte que les disques.',
    'opt.metered': 'prix de l’énergie × PUE', 'opt.perDrive': 'un coût annuel par disque',
    'f.usdPerKwh': 'Prix de l’électricité', 'h.usdPerKwh': 'Le coût d’un kilowattheure.',
    'f.pue': 'PUE (facteur de refroidissement)', 'h.pue': 'Efficacité énergétique : puissance totale du site ÷ puissance informatique (1 = pas de surcoût de refroidissement).',
    'f.usdPerDrive': 'Coût énergétique par disque', 'h.usdPerDrive': 'Énergie et refroidissement d’un disque pendant un an.',
    'f.reference': 'Économies mesurées par rapport à', 'h.reference': 'La configuration à laquelle les autres sont comparées.',
    'f.drivePrice': 'Prix', 'f.driveIops': 'IOPS par disque', 'f.driveCapacity': 'Capacité', 'f.driveWatts': 'Puissance', 'f.driveAfr': 'AFR',
    'h.drives': 'Par disque : prix d’achat, IOPS aléatoires soutenues, capacité brute, puissance en fonctionnement et taux de panne annualisé.',
    'col.drive': 'Modèle de disque',
    'f.backingDrive': 'Modèle de disque', 'h.backingDrive': 'Les disques qui portent les données.',
    'f.raid': 'Niveau RAID', 'h.raid': 'Pénalité d’écriture : RAID 0 : 1, RAID 1/10 : 2, RAID 5 : 4, RAID 6 : 6.',
    'opt.raid': 'RAID {level}', 'opt.raidCustom': 'personnalisé',
    'f.groupSize': 'Disques par groupe RAID', 'h.groupSize': 'RAID 1 : 2 ; RAID 10 : pair, au moins 4 ; RAID 5 : au moins 3 ; RAID 6 : au moins 4.',
    'f.writePenalty': 'Pénalité d’écriture', 'h.writePenalty': 'E/S en fond par écriture frontale (RAID personnalisé).',
    'f.redundant': 'Disques de redondance par groupe', 'h.redundant': 'Disques de chaque groupe qui portent la redondance (RAID personnalisé).',
    'f.count': 'Nombre de disques', 'h.count': 'Laissez vide pour que le modèle le calcule ; un nombre saisi compte des groupes RAID entiers.',
    'f.baseCost': 'Système de base', 'h.baseCost': 'Contrôleur, tête et châssis, payés une fois.',
    'f.support': 'Support', 'h.support': 'Contrat de support par an.',
    cacheSsdTitle: 'Cache SSD', cacheRamTitle: 'Cache RAM', noCache: 'Pas de cache dans cette configuration.',
    'f.cacheDrive': 'Modèle de SSD de cache', 'h.cacheDrive': 'Un SSD avec une endurance nominale.',
    'f.cacheCount': 'SSD de cache', 'h.cacheCount': 'Nombre de SSD de cache (groupes RAID entiers).',
    'f.cacheMode': 'Traitement des écritures', 'h.cacheMode': 'L’écriture différée absorbe les écritures dans le cache ; l’écriture immédiate les envoie aussi aux disques.',
    'f.readHit': 'Taux de succès en lecture', 'h.readHit': 'Part des lectures servies par le cache.',
    'f.writeHit': 'Taux de succès en écriture', 'h.writeHit': 'Part des écritures absorbées par le cache (écriture différée seulement).',
    hitSource: 'Taux de succès : {source}.',
    'f.license': 'Licence du cache', 'h.license': 'Licence du logiciel de cache, payée une fois.',
    'unit.years': 'ans', 'unit.iops': 'IOPS', 'unit.percent': '%', 'unit.percentPerYear': '% par an', 'unit.kib': 'Kio', 'unit.tb': 'To',
    'unit.usd': 'USD', 'unit.usdPerKwh': 'USD par kWh', 'unit.factor': '×', 'unit.usdPerDriveYear': 'USD par disque et par an',
    'unit.usdPerYear': 'USD par an', 'unit.watts': 'W', 'unit.drives': 'disques',
    fieldRef: '{label} ({path})',
    lastValid: 'Les résultats ci-dessous sont ceux de la dernière saisie valide.',
    noResultYet: 'Pas encore de résultat valide.',
    'chart.costs': 'Coût total sur {years} ans par configuration',
    'chart.cumulative': 'Coût cumulé au fil des années',
    'chart.spindles': 'Disques nécessaires selon l’objectif d’IOPS',
    'axis.config': 'Configuration', 'axis.usd': 'Coût (USD)', 'axis.year': 'Année (0 = premier jour)',
    'axis.iopsTarget': 'Objectif d’IOPS frontal aujourd’hui (IOPS)', 'axis.drives': 'Disques de données (nombre)',
    cmpCaption: 'Comparaison avec {label} (USD sur la période)',
    summary: 'Résumé du graphique : {text}',
    'sum.total': '{label} : {total} USD',
    'sum.cumulative': '{label} : {start} USD le premier jour, {end} USD après {years} ans',
    'sum.spindles': '{label} : {points}',
    'sum.spindlesPoint': '{drives} disques à {iops} IOPS',
    'sum.noFit': 'ne tient pas à {iops} IOPS',
    'life.config': 'Configuration', 'life.backing': 'Disques de données', 'life.cache': 'SSD de cache', 'life.none': '—',
    addConfig: 'Ajouter une configuration', dupConfig: 'Dupliquer', removeConfig: 'Supprimer', lastConfig: 'Un scénario a besoin d’au moins une configuration.',
    newConfig: 'Configuration {n}', copyOf: '{label} (copie)', addSsdCache: 'Ajouter un cache SSD', addRamCache: 'Ajouter un cache RAM', removeCache: 'Supprimer le cache',
    configActions: 'Actions sur {label}',
    'sec.catalog': 'Ajouter un modèle de disque', 'f.catalog': 'Depuis le catalogue de disques', 'h.catalog': 'Modèles réels ; chaque valeur avec sa source et sa date. Les prix sont des exemples : remplacez-les par un devis.',
    addFromCatalog: 'Ajouter ce disque', addTyped: 'Ajouter un disque à saisir', newDrive: 'Nouveau disque {n}', removeDrive: 'Supprimer',
    driveInUse: '{label} est utilisé par une configuration : choisissez d’abord un autre disque.',
    'col.figure': 'Valeur', 'col.value': 'Chiffre', 'col.source': 'Source', 'col.date': 'Date',
    catalogFailed: 'Le catalogue de disques n’a pas pu être lu : {detail}', catalogLoading: 'Chargement du catalogue de disques…',
    'fig.absent': 'non fourni', 'fig.examplePrice': 'prix d’exemple : remplacez-le par un devis', catalogCaption: 'Valeurs de {label} et leurs sources',
    'fig.rpm': 'Vitesse de rotation (tr/min)', 'fig.capacityBytes': 'Capacité', 'fig.randomReadIops4k': 'Lecture aléatoire 4 Kio (IOPS)', 'fig.randomWriteIops4k': 'Écriture aléatoire 4 Kio (IOPS)',
    'fig.iops': 'IOPS de dimensionnement', 'fig.seqReadMBps': 'Lecture séquentielle (Mo/s)', 'fig.watts': 'Puissance moyenne (W)', 'fig.maxWatts': 'Puissance maximale (W)', 'fig.idleWatts': 'Puissance au repos (W)',
    'fig.workloadTbPerYear': 'Charge nominale (To/an)', 'fig.enduranceTbw': 'Endurance (TBW)', 'fig.dwpd': 'Écritures complètes par jour', 'fig.warrantyYears': 'Garantie (ans)',
    'fig.mtbfHours': 'MTBF (heures)', 'fig.afr': 'AFR (%/an)', 'fig.priceUsd': 'Prix (USD)',
    import: 'Importer un scénario (JSON)', importHelp: 'Ouvre un fichier .tco.json, le format que lit `cacheproof tco FICHIER` ; il remplace le scénario affiché.',
    importFailed: '{file} n’a pas été importé : {sentence}', importNotJson: '{file} n’a pas été importé : ce n’est pas du JSON ({detail}). Choisissez un fichier de scénario (*.tco.json).',
    imported: '{file} importé.', saveFailed: 'Le scénario n’a pas pu être enregistré avec l’analyse : {detail}', problems: '{count} champs à corriger :',
    'chart.tornado': 'Économies de {label} face à {ref}, chaque entrée à −{pct} % et +{pct} %', 'axis.savings': 'Économies sur {years} ans (USD)',
    'tornado.low': 'Entrée −{pct} %', 'tornado.high': 'Entrée +{pct} %', 'tornado.none': 'La sensibilité demande une seconde configuration à comparer à la référence.',
    'seg.hdd-7.2k-nearline': 'HDD nearline, 7 200 tr/min', 'seg.hdd-10k': 'HDD, 10 000 tr/min', 'seg.ssd-sata-read-intensive': 'SSD SATA, lecture intensive', 'seg.ssd-sata-mixed-use': 'SSD SATA, usage mixte', 'seg.ssd-nvme': 'SSD NVMe',
  },
  es: {
    'f.ramSize': 'Tamaño de la caché', 'h.ramSize': 'Tamaño de la caché en RAM: su precio de compra y su consumo lo siguen, por GB del módulo del catálogo.', 'unit.gb': 'GB',
    'ramPrice': 'Precio por GiB del módulo del catálogo «{module}»: {usdPerGb} USD y {wattsPerGb} W por GiB (los GB de los módulos son binarios), es decir {cost} USD y {watts} W.',
    'ramBasis.engine': 'Rellenado con {size}: el tamaño que el motor de caché indicó para su caché en esta captura.',
    'ramBasis.prediction': 'Rellenado con {size}: el tamaño más pequeño con el que la predicción de la traza alcanza la cuota de lecturas servidas medida.',
    'ramBasis.footprint': 'Rellenado con {size}: la huella de la traza, cada bloque tocado en la línea base (no se midió cuota de lecturas servidas, o la predicción no la alcanza).',
    'ramBasis.bytes-moved': 'Rellenado con {size}: los bytes leídos y escritos en los discos de respaldo en la ventana de referencia, como mucho su capacidad — una cota superior del conjunto de trabajo (sin traza ni tamaño del motor).',
    'ramBasis.none': 'Este tamaño se escribió o viene del archivo de escenario: no es una medición.',
    'nav.results': 'Resultados', 'nav.planner': 'Planificador', 'nav.label': 'Pantallas',
    title: 'Planificador de coste total y vida útil de los discos',
    intro: 'Precargado desde este análisis (IOPS medidas, proporción de lecturas, tamaño de petición, capacidad y tasas de acierto de la caché). Cambie cualquier dato: la comparación se recalcula al instante. Importes en dólares estadounidenses; un TB son 10¹² bytes.',
    loading: 'Preparando un escenario a partir del análisis…',
    loadFailed: 'No se pudo precargar el escenario desde este análisis.',
    savedNote: 'Los cambios válidos se guardan con este análisis (en la carpeta de datos de la aplicación: una recarga o una nueva apertura los encuentra); el informe imprime este escenario.',
    export: 'Exportar el escenario (JSON)',
    exportHelp: 'Descarga el escenario como archivo .tco.json que lee `cacheproof tco ARCHIVO`.',
    exportDisabled: 'Corrija el dato indicado arriba para exportar el escenario.',
    reset: 'Volver al escenario medido',
    'sec.workload': 'Carga', 'sec.energy': 'Energía y refrigeración', 'sec.drives': 'Modelos de disco', 'sec.configs': 'Configuraciones',
    'sec.results': 'Resultados', 'sec.life': 'Vida útil de los discos', 'sec.charts': 'Gráficos', 'sec.lines': 'Partidas por configuración',
    'f.years': 'Periodo', 'h.years': 'Años durante los que se comparan las configuraciones (1–30).',
    'f.basis': 'Base de IOPS', 'h.basis': 'Qué cifra de la carga medida es el objetivo de IOPS de front-end.',
    'f.iopsTarget': 'Objetivo de IOPS ({basis})', 'h.iopsTarget': 'E/S por segundo que el almacenamiento debe sostener hoy.',
    'f.readShare': 'Proporción de lecturas', 'h.readShare': 'Parte de las E/S de front-end que son lecturas.',
    'f.requestSize': 'Tamaño medio de petición', 'h.requestSize': 'Tamaño medio de una E/S (1 KiB = 1.024 bytes).',
    'f.capacity': 'Capacidad necesaria hoy', 'h.capacity': 'Capacidad útil, tras la sobrecarga RAID.',
    'f.capGrowth': 'Crecimiento de la capacidad', 'h.capGrowth': 'Crecimiento compuesto de la capacidad por año.',
    'f.iopsGrowth': 'Crecimiento de IOPS', 'h.iopsGrowth': 'Crecimiento compuesto del objetivo de IOPS por año.',
    'f.sizeFor': 'Dimensionar para', 'h.sizeFor': 'El año cuya demanda dimensiona cada configuración.',
    'opt.finalYear': 'el último año (compra única, crecimiento cubierto)', 'opt.firstYear': 'solo el primer año (crecimiento no cubierto)',
    'f.energyMode': 'Energía calculada por', 'h.energyMode': 'La energía medida cuenta discos, bandejas y sistemas; un coste por disco solo cuenta discos.',
    'opt.metered': 'precio de la energía × PUE', 'opt.perDrive': 'un coste anual por disco',
    'f.usdPerKwh': 'Precio de la electricidad', 'h.usdPerKwh': 'Lo que cuesta un kilovatio hora.',
    'f.pue': 'PUE (factor de refrigeración)', 'h.pue': 'Eficiencia energética: potencia total de la instalación ÷ potencia TI (1 = sin sobrecoste de refrigeración).',
    'f.usdPerDrive': 'Coste energético por disco', 'h.usdPerDrive': 'Energía y refrigeración de un disco durante un año.',
    'f.reference': 'Ahorro medido frente a', 'h.reference': 'La configuración con la que se comparan las demás.',
    'f.drivePrice': 'Precio', 'f.driveIops': 'IOPS por disco', 'f.driveCapacity': 'Capacidad', 'f.driveWatts': 'Potencia', 'f.driveAfr': 'AFR',
    'h.drives': 'Por disco: precio de compra, IOPS aleatorias sostenidas, capacidad bruta, potencia en funcionamiento y tasa anual de fallos.',
    'col.drive': 'Modelo de disco',
    'f.backingDrive': 'Modelo de disco', 'h.backingDrive': 'Los discos que guardan los datos.',
    'f.raid': 'Nivel RAID', 'h.raid': 'Penalización de escritura: RAID 0: 1, RAID 1/10: 2, RAID 5: 4, RAID 6: 6.',
    'opt.raid': 'RAID {level}', 'opt.raidCustom': 'personalizado',
    'f.groupSize': 'Discos por grupo RAID', 'h.groupSize': 'RAID 1: 2; RAID 10: par, al menos 4; RAID 5: al menos 3; RAID 6: al menos 4.',
    'f.writePenalty': 'Penalización de escritura', 'h.writePenalty': 'E/S de back-end por escritura de front-end (RAID personalizado).',
    'f.redundant': 'Discos redundantes por grupo', 'h.redundant': 'Discos de cada grupo que guardan redundancia, no datos (RAID personalizado).',
    'f.count': 'Número de discos', 'h.count': 'Déjelo vacío para que lo calcule el modelo; un número escrito son grupos RAID completos.',
    'f.baseCost': 'Sistema base', 'h.baseCost': 'Controladora, cabezal y chasis, se paga una vez.',
    'f.support': 'Soporte', 'h.support': 'Contrato de soporte por año.',
    cacheSsdTitle: 'Caché SSD', cacheRamTitle: 'Caché RAM', noCache: 'Sin caché en esta configuración.',
    'f.cacheDrive': 'Modelo de SSD de caché', 'h.cacheDrive': 'Un SSD con resistencia nominal.',
    'f.cacheCount': 'SSD de caché', 'h.cacheCount': 'Número de SSD de caché (grupos RAID completos).',
    'f.cacheMode': 'Tratamiento de escrituras', 'h.cacheMode': 'Write-back absorbe las escrituras en la caché; write-through envía además cada escritura a los discos.',
    'f.readHit': 'Tasa de acierto en lectura', 'h.readHit': 'Parte de las lecturas servidas por la caché.',
    'f.writeHit': 'Tasa de acierto en escritura', 'h.writeHit': 'Parte de las escrituras que absorbe la caché (solo write-back).',
    hitSource: 'Tasas de acierto: {source}.',
    'f.license': 'Licencia de la caché', 'h.license': 'Licencia del software de caché, se paga una vez.',
    'unit.years': 'años', 'unit.iops': 'IOPS', 'unit.percent': '%', 'unit.percentPerYear': '% al año', 'unit.kib': 'KiB', 'unit.tb': 'TB',
    'unit.usd': 'USD', 'unit.usdPerKwh': 'USD por kWh', 'unit.factor': '×', 'unit.usdPerDriveYear': 'USD por disco y año',
    'unit.usdPerYear': 'USD al año', 'unit.watts': 'W', 'unit.drives': 'discos',
    fieldRef: '{label} ({path})',
    lastValid: 'Los resultados de abajo son los del último dato válido.',
    noResultYet: 'Todavía no hay un resultado válido.',
    'chart.costs': 'Coste total en {years} años por configuración',
    'chart.cumulative': 'Coste acumulado a lo largo de los años',
    'chart.spindles': 'Discos necesarios según el objetivo de IOPS',
    'axis.config': 'Configuración', 'axis.usd': 'Coste (USD)', 'axis.year': 'Año (0 = primer día)',
    'axis.iopsTarget': 'Objetivo de IOPS de front-end hoy (IOPS)', 'axis.drives': 'Discos de datos (número)',
    cmpCaption: 'Comparación con {label} (USD en el periodo)',
    summary: 'Resumen del gráfico: {text}',
    'sum.total': '{label}: {total} USD',
    'sum.cumulative': '{label}: {start} USD el primer día, {end} USD tras {years} años',
    'sum.spindles': '{label}: {points}',
    'sum.spindlesPoint': '{drives} discos a {iops} IOPS',
    'sum.noFit': 'no cabe a {iops} IOPS',
    'life.config': 'Configuración', 'life.backing': 'Discos de datos', 'life.cache': 'SSD de caché', 'life.none': '—',
    addConfig: 'Añadir una configuración', dupConfig: 'Duplicar', removeConfig: 'Quitar', lastConfig: 'Un escenario necesita al menos una configuración.',
    newConfig: 'Configuración {n}', copyOf: '{label} (copia)', addSsdCache: 'Añadir una caché SSD', addRamCache: 'Añadir una caché RAM', removeCache: 'Quitar la caché',
    configActions: 'Acciones sobre {label}',
    'sec.catalog': 'Añadir un modelo de disco', 'f.catalog': 'Del catálogo de discos', 'h.catalog': 'Modelos reales; cada cifra con su fuente y fecha. Los precios son ejemplos: sustitúyalos por un presupuesto.',
    addFromCatalog: 'Añadir este disco', addTyped: 'Añadir un disco a introducir', newDrive: 'Disco nuevo {n}', removeDrive: 'Quitar',
    driveInUse: '{label} lo usa una configuración: elija antes otro disco allí.',
    'col.figure': 'Cifra', 'col.value': 'Valor', 'col.source': 'Fuente', 'col.date': 'Fecha',
    catalogFailed: 'No se pudo leer el catálogo de discos: {detail}', catalogLoading: 'Cargando el catálogo de discos…',
    'fig.absent': 'no indicado', 'fig.examplePrice': 'precio de ejemplo: sustitúyalo por un presupuesto', catalogCaption: 'Cifras de {label} y sus fuentes',
    'fig.rpm': 'Velocidad de giro (rpm)', 'fig.capacityBytes': 'Capacidad', 'fig.randomReadIops4k': 'Lectura aleatoria 4 KiB (IOPS)', 'fig.randomWriteIops4k': 'Escritura aleatoria 4 KiB (IOPS)',
    'fig.iops': 'IOPS de dimensionamiento', 'fig.seqReadMBps': 'Lectura secuencial (MB/s)', 'fig.watts': 'Potencia media (W)', 'fig.maxWatts': 'Potencia máxima (W)', 'fig.idleWatts': 'Potencia en reposo (W)',
    'fig.workloadTbPerYear': 'Carga nominal (TB/año)', 'fig.enduranceTbw': 'Resistencia (TBW)', 'fig.dwpd': 'Escrituras completas por día', 'fig.warrantyYears': 'Garantía (años)',
    'fig.mtbfHours': 'MTBF (horas)', 'fig.afr': 'AFR (%/año)', 'fig.priceUsd': 'Precio (USD)',
    import: 'Importar escenario (JSON)', importHelp: 'Abre un archivo .tco.json, el formato que lee `cacheproof tco ARCHIVO`; sustituye el escenario en pantalla.',
    importFailed: '{file} no se importó: {sentence}', importNotJson: '{file} no se importó: no es JSON ({detail}). Elija un archivo de escenario (*.tco.json).',
    imported: '{file} importado.', saveFailed: 'No se pudo guardar el escenario con el análisis: {detail}', problems: '{count} campos por corregir:',
    'chart.tornado': 'Ahorro de {label} frente a {ref} con cada entrada a −{pct} % y +{pct} %', 'axis.savings': 'Ahorro en {years} años (USD)',
    'tornado.low': 'Entrada −{pct} %', 'tornado.high': 'Entrada +{pct} %', 'tornado.none': 'La sensibilidad necesita una segunda configuración que comparar con la referencia.',
    'seg.hdd-7.2k-nearline': 'HDD nearline, 7.200 rpm', 'seg.hdd-10k': 'HDD, 10.000 rpm', 'seg.ssd-sata-read-intensive': 'SSD SATA, lectura intensiva', 'seg.ssd-sata-mixed-use': 'SSD SATA, uso mixto', 'seg.ssd-nvme': 'SSD NVMe',
  },
  ru: {
    'f.ramSize': 'Размер кэша', 'h.ramSize': 'Размер кэша в ОЗУ: цена покупки и мощность следуют за ним, за ГБ модуля из каталога.', 'unit.gb': 'ГБ',
    'ramPrice': 'Цена за ГиБ модуля каталога «{module}»: {usdPerGb} USD и {wattsPerGb} Вт за ГиБ (ГБ модулей памяти двоичные), итого {cost} USD и {watts} Вт.',
    'ramBasis.engine': 'Заполнено значением {size}: размер, который движок кэша сообщил для своего кэша в этой записи.',
    'ramBasis.prediction': 'Заполнено значением {size}: наименьший размер, при котором прогноз по трассе достигает измеренной доли попаданий чтения.',
    'ramBasis.footprint': 'Заполнено значением {size}: объём трассы, каждый блок, затронутый в базовом окне (доля попаданий чтения не измерена или прогноз её не достигает).',
    'ramBasis.bytes-moved': 'Заполнено значением {size}: байты, прочитанные и записанные на нижние диски в базовом окне, не больше их ёмкости — верхняя граница рабочего набора (нет ни трассы, ни размера от движка).',
    'ramBasis.none': 'Этот размер введён вручную или взят из файла сценария: это не измерение.',
    'nav.results': 'Результаты', 'nav.planner': 'Планировщик', 'nav.label': 'Экраны',
    title: 'Планировщик совокупной стоимости и ресурса дисков',
    intro: 'Заполнено по этому анализу (измеренные IOPS, доля чтений, размер запроса, ёмкость и доли попаданий в кэш). Измените любое значение — сравнение пересчитывается сразу. Суммы в долларах США; ТБ — 10¹² байт.',
    loading: 'Готовим сценарий по анализу…',
    loadFailed: 'Не удалось заполнить сценарий по этому анализу.',
    savedNote: 'Корректные изменения сохраняются вместе с этим анализом (в папке данных приложения: они сохраняются после перезагрузки и повторного запуска); отчёт печатает этот сценарий.',
    export: 'Экспорт сценария (JSON)',
    exportHelp: 'Скачивает сценарий файлом .tco.json, который читает `cacheproof tco ФАЙЛ`.',
    exportDisabled: 'Исправьте указанное выше значение, чтобы экспортировать сценарий.',
    reset: 'Вернуть измеренный сценарий',
    'sec.workload': 'Нагрузка', 'sec.energy': 'Питание и охлаждение', 'sec.drives': 'Модели дисков', 'sec.configs': 'Конфигурации',
    'sec.results': 'Результаты', 'sec.life': 'Ресурс дисков', 'sec.charts': 'Графики', 'sec.lines': 'Статьи затрат по конфигурациям',
    'f.years': 'Период', 'h.years': 'Число лет, за которые сравниваются конфигурации (1–30).',
    'f.basis': 'Основа IOPS', 'h.basis': 'Какая величина измеренной нагрузки служит целевыми IOPS.',
    'f.iopsTarget': 'Целевые IOPS ({basis})', 'h.iopsTarget': 'Операций ввода-вывода в секунду, которые хранилище должно выдерживать сегодня.',
    'f.readShare': 'Доля чтений', 'h.readShare': 'Доля операций, которые являются чтениями.',
    'f.requestSize': 'Средний размер запроса', 'h.requestSize': 'Средний размер одной операции (1 КиБ = 1024 байта).',
    'f.capacity': 'Нужная ёмкость сегодня', 'h.capacity': 'Полезная ёмкость после накладных расходов RAID.',
    'f.capGrowth': 'Рост ёмкости', 'h.capGrowth': 'Сложный годовой рост ёмкости.',
    'f.iopsGrowth': 'Рост IOPS', 'h.iopsGrowth': 'Сложный годовой рост целевых IOPS.',
    'f.sizeFor': 'Рассчитывать на', 'h.sizeFor': 'Год, под спрос которого рассчитывается каждая конфигурация.',
    'opt.finalYear': 'последний год (покупка сразу, рост учтён)', 'opt.firstYear': 'только первый год (рост не учтён)',
    'f.energyMode': 'Расчёт питания', 'h.energyMode': 'По энергии учитываются диски, полки и системы; по стоимости на диск — только диски.',
    'opt.metered': 'цена энергии × PUE', 'opt.perDrive': 'годовая стоимость на диск',
    'f.usdPerKwh': 'Цена электроэнергии', 'h.usdPerKwh': 'Стоимость одного киловатт-часа.',
    'f.pue': 'PUE (коэффициент охлаждения)', 'h.pue': 'Эффективность: полная мощность площадки ÷ мощность ИТ (1 = без затрат на охлаждение).',
    'f.usdPerDrive': 'Питание на диск', 'h.usdPerDrive': 'Питание и охлаждение одного диска за год.',
    'f.reference': 'Экономия относительно', 'h.reference': 'Конфигурация, с которой сравниваются остальные.',
    'f.drivePrice': 'Цена', 'f.driveIops': 'IOPS на диск', 'f.driveCapacity': 'Ёмкость', 'f.driveWatts': 'Мощность', 'f.driveAfr': 'AFR',
    'h.drives': 'На диск: цена покупки, устойчивые случайные IOPS, сырая ёмкость, рабочая мощность и годовая частота отказов.',
    'col.drive': 'Модель диска',
    'f.backingDrive': 'Модель диска', 'h.backingDrive': 'Диски, на которых хранятся данные.',
    'f.raid': 'Уровень RAID', 'h.raid': 'Штраф записи: RAID 0: 1, RAID 1/10: 2, RAID 5: 4, RAID 6: 6.',
    'opt.raid': 'RAID {level}', 'opt.raidCustom': 'свой',
    'f.groupSize': 'Дисков в группе RAID', 'h.groupSize': 'RAID 1: 2; RAID 10: чётное, не меньше 4; RAID 5: не меньше 3; RAID 6: не меньше 4.',
    'f.writePenalty': 'Штраф записи', 'h.writePenalty': 'Операций на дисках на одну запись (свой RAID).',
    'f.redundant': 'Избыточных дисков в группе', 'h.redundant': 'Диски группы, хранящие избыточность, а не данные (свой RAID).',
    'f.count': 'Число дисков', 'h.count': 'Оставьте пустым, чтобы модель рассчитала его; введённое число — целые группы RAID.',
    'f.baseCost': 'Базовая система', 'h.baseCost': 'Контроллер, головной модуль и шасси, оплачиваются один раз.',
    'f.support': 'Поддержка', 'h.support': 'Контракт поддержки в год.',
    cacheSsdTitle: 'SSD-кэш', cacheRamTitle: 'Кэш в ОЗУ', noCache: 'В этой конфигурации нет кэша.',
    'f.cacheDrive': 'Модель SSD для кэша', 'h.cacheDrive': 'SSD с заявленным ресурсом записи.',
    'f.cacheCount': 'SSD кэша', 'h.cacheCount': 'Число SSD кэша (целые группы RAID).',
    'f.cacheMode': 'Обработка записи', 'h.cacheMode': 'Отложенная запись поглощает записи в кэше; сквозная отправляет каждую запись и на диски.',
    'f.readHit': 'Доля попаданий при чтении', 'h.readHit': 'Доля чтений, обслуженных кэшем.',
    'f.writeHit': 'Доля попаданий при записи', 'h.writeHit': 'Доля записей, поглощённых кэшем (только отложенная запись).',
    hitSource: 'Доли попаданий: {source}.',
    'f.license': 'Лицензия кэша', 'h.license': 'Лицензия ПО кэша, оплачивается один раз.',
    'unit.years': 'лет', 'unit.iops': 'IOPS', 'unit.percent': '%', 'unit.percentPerYear': '% в год', 'unit.kib': 'КиБ', 'unit.tb': 'ТБ',
    'unit.usd': 'USD', 'unit.usdPerKwh': 'USD за кВт·ч', 'unit.factor': '×', 'unit.usdPerDriveYear': 'USD на диск в год',
    'unit.usdPerYear': 'USD в год', 'unit.watts': 'Вт', 'unit.drives': 'дисков',
    fieldRef: '{label} ({path})',
    lastValid: 'Ниже показаны результаты последнего корректного ввода.',
    noResultYet: 'Корректного результата пока нет.',
    'chart.costs': 'Полная стоимость за {years} {years|one:год|few:года|many:лет|other:года} по конфигурациям',
    'chart.cumulative': 'Накопленная стоимость по годам',
    'chart.spindles': 'Нужное число дисков в зависимости от целевых IOPS',
    'axis.config': 'Конфигурация', 'axis.usd': 'Стоимость (USD)', 'axis.year': 'Год (0 = первый день)',
    'axis.iopsTarget': 'Целевые IOPS сегодня (IOPS)', 'axis.drives': 'Диски данных (шт.)',
    cmpCaption: 'Сравнение с «{label}» (USD за период)',
    summary: 'Сводка графика: {text}',
    'sum.total': '{label}: {total} USD',
    'sum.cumulative': '{label}: {start} USD в первый день, {end} USD через {years} {years|one:год|few:года|many:лет|other:года}',
    'sum.spindles': '{label}: {points}',
    'sum.spindlesPoint': '{drives} {drives|one:диск|few:диска|many:дисков|other:диска} при {iops} IOPS',
    'sum.noFit': 'не помещается при {iops} IOPS',
    'life.config': 'Конфигурация', 'life.backing': 'Диски данных', 'life.cache': 'SSD кэша', 'life.none': '—',
    addConfig: 'Добавить конфигурацию', dupConfig: 'Дублировать', removeConfig: 'Удалить', lastConfig: 'В сценарии нужна хотя бы одна конфигурация.',
    newConfig: 'Конфигурация {n}', copyOf: '{label} (копия)', addSsdCache: 'Добавить SSD-кэш', addRamCache: 'Добавить RAM-кэш', removeCache: 'Удалить кэш',
    configActions: 'Действия с «{label}»',
    'sec.catalog': 'Добавить модель диска', 'f.catalog': 'Из каталога дисков', 'h.catalog': 'Реальные модели; у каждого значения есть источник и дата. Цены — примеры: замените их ценами из предложения.',
    addFromCatalog: 'Добавить этот диск', addTyped: 'Добавить диск для ручного ввода', newDrive: 'Новый диск {n}', removeDrive: 'Удалить',
    driveInUse: '«{label}» используется в конфигурации: сначала выберите там другой диск.',
    'col.figure': 'Параметр', 'col.value': 'Значение', 'col.source': 'Источник', 'col.date': 'Дата',
    catalogFailed: 'Не удалось прочитать каталог дисков: {detail}', catalogLoading: 'Загрузка каталога дисков…',
    'fig.absent': 'не указано', 'fig.examplePrice': 'цена-пример: замените её ценой из предложения', catalogCaption: 'Параметры «{label}» и их источники',
    'fig.rpm': 'Скорость вращения (об/мин)', 'fig.capacityBytes': 'Ёмкость', 'fig.randomReadIops4k': 'Случайное чтение 4 КиБ (IOPS)', 'fig.randomWriteIops4k': 'Случайная запись 4 КиБ (IOPS)',
    'fig.iops': 'IOPS для расчёта', 'fig.seqReadMBps': 'Последовательное чтение (МБ/с)', 'fig.watts': 'Средняя мощность (Вт)', 'fig.maxWatts': 'Максимальная мощность (Вт)', 'fig.idleWatts': 'Мощность в простое (Вт)',
    'fig.workloadTbPerYear': 'Номинальная нагрузка (ТБ/год)', 'fig.enduranceTbw': 'Ресурс (TBW)', 'fig.dwpd': 'Перезаписей в день', 'fig.warrantyYears': 'Гарантия (лет)',
    'fig.mtbfHours': 'MTBF (часов)', 'fig.afr': 'AFR (%/год)', 'fig.priceUsd': 'Цена (USD)',
    import: 'Импорт сценария (JSON)', importHelp: 'Открывает файл .tco.json в формате, который читает `cacheproof tco ФАЙЛ`; он заменяет сценарий на экране.',
    importFailed: '{file} не импортирован: {sentence}', importNotJson: '{file} не импортирован: это не JSON ({detail}). Выберите файл сценария (*.tco.json).',
    imported: '{file} импортирован.', saveFailed: 'Не удалось сохранить сценарий вместе с анализом: {detail}', problems: 'Нужно исправить полей: {count}.',
    'chart.tornado': 'Экономия «{label}» против «{ref}» при изменении каждого параметра на −{pct} % и +{pct} %', 'axis.savings': 'Экономия за {years} г. (USD)',
    'tornado.low': 'Параметр −{pct} %', 'tornado.high': 'Параметр +{pct} %', 'tornado.none': 'Для чувствительности нужна вторая конфигурация для сравнения с эталоном.',
    'seg.hdd-7.2k-nearline': 'HDD nearline, 7200 об/мин', 'seg.hdd-10k': 'HDD, 10 000 об/мин', 'seg.ssd-sata-read-intensive': 'SSD SATA, для чтения', 'seg.ssd-sata-mixed-use': 'SSD SATA, смешанная нагрузка', 'seg.ssd-nvme': 'SSD NVMe',
  },
};

/**
 * One translated sentence for a planner error, naming the field: `fieldLabel` (the on-screen
 * label, when the field has one) is put before its JSON path. Falls back to the engine's
 * English message for a code the catalog does not know. Same rule as `cacheproof tco`.
 * Example: below-min at `energy.usdPerKwh`, label "Electricity price" →
 * "Electricity price (energy.usdPerKwh): must be at least 0, got -0.1."
 */
export function planErrorSentence(error: PlanError, lang: Lang, fieldLabel: string | null): string {
  const key = `err.${error.code}` as TcoKey;
  if (!(key in tco.en)) return error.message;
  const params: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(error.params)) params[k] = typeof v === 'number' ? formatTcoDecimal(lang, v, 1) : v;
  if (fieldLabel !== null) params['path'] = translate(planner, lang, 'fieldRef', { label: fieldLabel, path: error.path });
  return translate(tco, lang, key, params);
}

/** The formula of a line item with its numbers, as `cacheproof tco` prints it in its Detail column. */
export function lineItemDetail(line: LineItem, lang: Lang): string {
  const t = (key: TcoKey, params?: Record<string, string | number>): string => translate(tco, lang, key, params);
  const p = line.params;
  const num = (k: string, digits = 4): string => (typeof p[k] === 'number' ? formatTcoDecimal(lang, p[k], digits) : String(p[k] ?? ''));
  switch (line.id) {
    case 'baseSystem':
    case 'cacheLicense':
      return t('detail.price');
    case 'backingDrives':
    case 'cacheDrives':
      return t('detail.countPrice', { count: num('count'), priceUsd: num('priceUsd', 2) });
    case 'cacheRam':
      return t('detail.cacheRam', { sizeGb: formatTcoDecimal(lang, Number(p.capacityBytes) / 1e9, 1) });
    case 'enclosures':
      return t('detail.enclosures', { count: num('count'), priceUsd: num('priceUsd', 2), drives: num('drives'), builtIn: num('builtInSlots'), slots: num('slots') });
    case 'powerCooling':
      return 'usdPerKwh' in p
        ? t('detail.powerMetered', { watts: num('watts', 1), hours: num('hoursPerYear'), years: num('years'), usdPerKwh: num('usdPerKwh'), pue: num('pue') })
        : t('detail.powerPerDrive', { drives: num('drives'), usdPerDrivePerYear: num('usdPerDrivePerYear', 2), years: num('years') });
    case 'backingFailures':
    case 'cacheFailures':
      return t('detail.failures', { afrPct: formatTcoDecimal(lang, Number(p.afr) * 100, 3), count: num('count'), years: num('years'), priceUsd: num('priceUsd', 2) });
    case 'cacheWearReplacements':
      return t('detail.wear', { sets: num('sets'), count: num('count'), priceUsd: num('priceUsd', 2), wearYears: num('yearsToWearOut', 1) });
    case 'support':
      return t('detail.support', { perYearUsd: num('perYearUsd', 2), years: num('years') });
  }
}

/** The drive-life sentence of a configuration's backing drives (or, with `cache`, its cache SSDs), as `cacheproof tco` prints it; '' when there is none. */
export function driveLifeSentence(c: ConfigResult, years: number, lang: Lang, cache: boolean): string {
  const t = (key: TcoKey, params?: Record<string, string | number>): string => translate(tco, lang, key, params);
  const d = (x: number, digits: number): string => formatTcoDecimal(lang, x, digits);
  const life = cache ? c.cacheLife : c.backingLife;
  if (life === null) return '';
  const failures = d(life.expectedFailures, 2);
  const wear = (): string => (life.yearsToWearOut === null ? t('life.noWrites') : t('life.years', { n: d(life.yearsToWearOut, 1) }));
  if (cache) return t('life.cache', { tb: d(life.tbWrittenPerDrivePerYear ?? 0, 1), tbw: d(life.enduranceTbw ?? 0, 0), wear: wear(), years, failures });
  // a configuration without a cache writes the same before and after: one figure, no "with it"
  const noCache = c.kind === 'all-hdd' || c.kind === 'all-flash';
  if (noCache && life.tbPerDrivePerYearBefore !== null) {
    if (life.wearIndexBefore !== null && life.ratedTbPerYear !== null)
      return t('life.hddNoCache', { before: d(life.tbPerDrivePerYearBefore, 1), rating: d(life.ratedTbPerYear, 0), wiBefore: d(life.wearIndexBefore, 3), years, failures });
    return t('life.hddNoCacheNoRating', { before: d(life.tbPerDrivePerYearBefore, 1), years, failures });
  }
  if (life.tbPerDrivePerYearBefore !== null && life.tbPerDrivePerYearAfter !== null) {
    if (life.wearIndexBefore !== null && life.wearIndexAfter !== null && life.wearIndexChange !== null && life.ratedTbPerYear !== null)
      return t('life.hdd', {
        before: d(life.tbPerDrivePerYearBefore, 1),
        after: d(life.tbPerDrivePerYearAfter, 1),
        rating: d(life.ratedTbPerYear, 0),
        wiBefore: d(life.wearIndexBefore, 3),
        wiAfter: d(life.wearIndexAfter, 3),
        change: (life.wearIndexChange > 0 ? '+' : '') + d(life.wearIndexChange, 3),
        years,
        failures,
      });
    return t('life.hddNoRating', { before: d(life.tbPerDrivePerYearBefore, 1), after: d(life.tbPerDrivePerYearAfter, 1), years, failures });
  }
  return t('life.ssd', { tb: d(life.tbWrittenPerDrivePerYear ?? 0, 1), tbw: d(life.enduranceTbw ?? 0, 0), wear: wear(), years, failures });
}

/** The TCO catalog's translate and number formats in one language (as `cacheproof tco` and the Planner print them). */
function tcoText(lang: Lang): { t: (key: TcoKey, params?: Record<string, string | number>) => string; n: (x: number, digits?: number) => string; d: (x: number, digits?: number) => string } {
  return {
    t: (key, params) => translate(tco, lang, key, params),
    n: (x, digits = 0) => formatTcoNumber(lang, x, digits),
    d: (x, digits = 4) => formatTcoDecimal(lang, x, digits),
  };
}

/** The plan's header sentences: period and sizing year, demand, energy price, and "example prices" when the scenario marks its prices so. */
export function planSummarySentences(r: PlanResult, s: Scenario, lang: Lang): string[] {
  const { t, n, d } = tcoText(lang);
  return [
    t('period', { years: r.years, year: r.sizedForYear, sizeFor: t(`sizeFor.${r.sizeFor}`) }),
    t('demand', {
      basis: t(`basis.${r.iopsBasis}` as TcoKey),
      today: n(r.frontEndIopsToday),
      sized: n(r.frontEndIops),
      year: r.sizedForYear,
      capToday: fmtBytes(lang, r.capacityBytesToday),
      capSized: fmtBytes(lang, r.capacityBytes),
      readPct: d(s.workload.readShare * 100, 1),
    }),
    'usdPerKwh' in r.energy
      ? t('energyMetered', { usdPerKwh: d(r.energy.usdPerKwh), pue: d(r.energy.pue), hours: n(HOURS_PER_YEAR) })
      : t('energyPerDrive', { usd: d(r.energy.usdPerDrivePerYear, 2) }),
    ...(r.examplePrices ? [t('examplePrices')] : []),
  ];
}

/** A configuration's sizing sentences: its drives and why that many, its back-end IOPS, its cache. `i` is its index in the scenario. */
export function configurationSentences(r: PlanResult, s: Scenario, i: number, lang: Lang): string[] {
  const { t, n, d } = tcoText(lang);
  const c = r.configurations[i];
  const conf = s.configurations[i];
  if (c === undefined || conf === undefined) return [];
  const drive = s.drives.find((x) => x.id === c.backingDriveId);
  const out = [
    t('drives', {
      count: n(c.sizing.driveCount),
      drive: drive?.label ?? c.backingDriveId,
      raid: c.raidLevel,
      group: c.sizing.groupSize,
      forIops: n(c.sizing.countForIops),
      forCapacity: n(c.sizing.countForCapacity),
      min: n(c.sizing.minimumForRaid),
      binding: t(`binding.${c.sizing.binding}`),
    }),
    t('backEnd', { reads: n(c.backEnd.missReadIops), writes: n(c.backEnd.destagedWriteIops), penalty: d(c.backEnd.writePenalty), total: n(c.backEnd.backEndIops) }),
  ];
  const cache = conf.cache;
  if (cache !== undefined) {
    const common = { mode: t(`mode.${cache.mode}`), readPct: d(cache.readHitShare * 100, 1), writePct: d(cache.writeHitShare * 100, 1), source: t(`source.${cache.hitShareSource}`) };
    if (cache.kind === 'ssd') out.push(t('cacheSsd', { ...common, count: cache.count, drive: s.drives.find((x) => x.id === cache.driveId)?.label ?? cache.driveId, raid: cache.raid.level }));
    else out.push(t('cacheRam', { ...common, sizeGb: d(cache.capacityBytes / 1e9, 1) }));
  }
  return out;
}

/** Cost per IOPS the configuration can sustain (its ceiling, not the workload's IOPS) and per usable TB. */
export function costPerSentence(c: ConfigResult, lang: Lang): string {
  const { t, n } = tcoText(lang);
  const cap = fmtBytes(lang, c.usableCapacityBytes);
  return c.deliveredIops === null || c.costPerDeliveredIopsUsd === null
    ? t('perIopsUnbounded', { cap, usdPerTb: n(c.costPerUsableTbUsd, 2) })
    : t('perIops', { iops: n(c.deliveredIops), usdPerIops: n(c.costPerDeliveredIopsUsd, 2), cap, usdPerTb: n(c.costPerUsableTbUsd, 2) });
}

/** A configuration's warnings, one sentence each. */
export function configWarningSentences(c: ConfigResult, lang: Lang): string[] {
  const { t, d } = tcoText(lang);
  return c.warnings.map((w) => {
    const params: Record<string, string | number> = {};
    for (const [k, v] of Object.entries(w.params)) params[k] = typeof v === 'number' ? d(v, 2) : v;
    return t(`warn.${w.code}` as TcoKey, params);
  });
}

/** An input's value of the savings sensitivity in its unit (USD/kWh or USD per drive-year, USD, %, %/yr, IOPS, bytes). */
export function tornadoValueText(input: TornadoInput, value: number, energy: Scenario['energy'], lang: Lang): string {
  switch (input) {
    case 'energyPrice':
      return 'usdPerKwh' in energy ? `${fmtDecimal(lang, value, 4)} USD/kWh` : `${fmtDecimal(lang, value, 2)} USD`;
    case 'backingDrivePrice':
    case 'cacheDrivePrice':
      return `${fmtNumber(lang, value)} USD`;
    case 'hitShare':
    case 'capacityGrowth':
    case 'iopsGrowth':
      return fmtPercentUpTo(lang, value * 100, 1);
    case 'iopsTarget':
      return `${fmtNumber(lang, value)} IOPS`;
    case 'capacity':
      return fmtBytes(lang, value);
  }
}

/**
 * The savings sensitivity in sentences (engine savingsSensitivity): header, savings as entered,
 * one line per input (largest swing first), then the input that moves the savings most. Used by
 * `cacheproof tco`, the Planner's chart summary and the report.
 */
export function sensitivitySentences(sens: SavingsSensitivity, r: PlanResult, lang: Lang): string[] {
  const t = (key: TcoKey, params?: Record<string, string | number>): string => translate(tco, lang, key, params);
  const n = (x: number): string => formatTcoNumber(lang, x);
  const label = (id: string): string => r.configurations.find((c) => c.id === id)?.label ?? id;
  const out = [
    t('sens.header', { label: label(sens.configId), ref: label(sens.referenceId), pct: fmtDecimal(lang, sens.change * 100, 1) }),
    t('sens.base', { savings: n(sens.baseSavingsUsd), years: n(sens.years) }),
  ];
  for (const b of sens.bars) {
    const common = { input: t(`in.${b.input}`), low: tornadoValueText(b.input, b.lowValue, r.energy, lang), high: tornadoValueText(b.input, b.highValue, r.energy, lang) };
    if (b.savingsLowUsd === null || b.savingsHighUsd === null || b.swingUsd === null) out.push(t('sens.failed', { ...common, code: b.errorCode ?? '' }));
    else out.push(t('sens.line', { ...common, savingsLow: n(b.savingsLowUsd), savingsHigh: n(b.savingsHighUsd), swing: n(b.swingUsd) }));
  }
  const top = sens.bars[0];
  if (top?.swingUsd != null) out.push(t('sens.largest', { input: t(`in.${top.input}`), swing: n(top.swingUsd) }));
  return out;
}
