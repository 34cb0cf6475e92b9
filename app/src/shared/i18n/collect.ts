import type { Catalog } from './types.ts';

/** Strings of the Collect on another machine screen (namespace `collect`, app/src/renderer/collect/). */
export type CollectKey =
  | 'nav' | 'title' | 'intro' | 'os' | 'os.windows' | 'os.linux' | 'name' | 'interval' | 'baseline' | 'measure' | 'measureHelp' | 'folder'
  | 'steps' | 'step.create' | 'step.start' | 'step.typeperf' | 'step.iostat' | 'window.baseline' | 'window.measure'
  | 'fallback' | 'script' | 'download' | 'sendBack' | 'importWith' | 'invalid'
  | 'problem.name' | 'problem.interval' | 'problem.hours' | 'problem.folder' | 'samples' | 'back';

export const collectUi: Catalog<CollectKey> = {
  en: {
    nav: 'Collect on another machine',
    title: 'Collect on another machine',
    intro: 'For a server where the probe cannot run: the commands below record its disks with what it already has (Windows Performance Monitor, or iostat on Linux), into files that Import a log reads. Record the baseline with the cache off; switch the cache on; record the measure window.',
    os: 'Operating system', 'os.windows': 'Windows (Performance Monitor)', 'os.linux': 'Linux without the probe (iostat)',
    name: 'Collection name', interval: 'Sample interval (seconds)', baseline: 'Baseline (cache off), hours', measure: 'Measure (cache on), hours',
    measureHelp: '0 records a baseline alone: a workload profile, for sizing without a cache.', folder: 'Folder for the files on that machine',
    steps: 'Commands, in order (as administrator)', 'step.create': 'Create the {window} collection', 'step.start': 'Start it', 'step.typeperf': 'Or, where a collection cannot be created, record with typeperf',
    'step.iostat': 'Record the {window} window', 'window.baseline': 'baseline', 'window.measure': 'measure',
    fallback: 'typeperf reads the counters listed in the counters file the script writes.', script: 'The same as one script', download: 'Download {file}',
    sendBack: 'What to send back', importWith: 'Then import them with Import a log, or: {command}', invalid: 'Fix the plan first:',
    'problem.name': 'the name: letters, digits, - and _ only (up to 40)', 'problem.interval': 'the interval: whole seconds from 1 to 3,600',
    'problem.hours': 'the hours: the baseline above 0, the measure 0 or more, each at most 720', 'problem.folder': 'the folder: an absolute path (C:\\… on Windows, /… on Linux), without quotes, % or < > | ? *',
    samples: '{count} samples per window of {hours} h', back: 'Back to Home',
  },
  fr: {
    nav: 'Collecter sur une autre machine',
    title: 'Collecter sur une autre machine',
    intro: 'Pour un serveur où la sonde ne peut pas tourner : les commandes ci-dessous enregistrent ses disques avec ce qu’il a déjà (l’Analyseur de performances de Windows, ou iostat sous Linux), dans des fichiers que Importer un journal lit. Enregistrez la référence cache arrêté ; activez le cache ; enregistrez la fenêtre de mesure.',
    os: 'Système d’exploitation', 'os.windows': 'Windows (Analyseur de performances)', 'os.linux': 'Linux sans la sonde (iostat)',
    name: 'Nom de la collecte', interval: 'Intervalle d’échantillonnage (secondes)', baseline: 'Référence (cache arrêté), heures', measure: 'Mesure (cache actif), heures',
    measureHelp: '0 n’enregistre qu’une référence : un profil de charge, pour dimensionner sans cache.', folder: 'Dossier des fichiers sur cette machine',
    steps: 'Commandes, dans l’ordre (en administrateur)', 'step.create': 'Créer la collecte {window}', 'step.start': 'La démarrer', 'step.typeperf': 'Ou, là où une collecte ne peut pas être créée, enregistrer avec typeperf',
    'step.iostat': 'Enregistrer la fenêtre {window}', 'window.baseline': 'de référence', 'window.measure': 'de mesure',
    fallback: 'typeperf lit les compteurs listés dans le fichier de compteurs que le script écrit.', script: 'La même chose en un script', download: 'Télécharger {file}',
    sendBack: 'Ce qu’il faut renvoyer', importWith: 'Puis importez-les avec Importer un journal, ou : {command}', invalid: 'Corrigez d’abord le plan :',
    'problem.name': 'le nom : lettres, chiffres, - et _ seulement (40 au plus)', 'problem.interval': 'l’intervalle : secondes entières de 1 à 3 600',
    'problem.hours': 'les heures : la référence au-dessus de 0, la mesure 0 ou plus, chacune 720 au plus', 'problem.folder': 'le dossier : un chemin absolu (C:\\… sous Windows, /… sous Linux), sans guillemets, % ni < > | ? *',
    samples: '{count} échantillons par fenêtre de {hours} h', back: 'Retour à l’accueil',
  },
  es: {
    nav: 'Recoger en otra máquina',
    title: 'Recoger en otra máquina',
    intro: 'Para un servidor donde la sonda no puede ejecutarse: los comandos siguientes registran sus discos con lo que ya tiene (el Monitor de rendimiento de Windows, o iostat en Linux), en archivos que Importar un registro lee. Registre la línea base con la caché apagada; active la caché; registre la ventana de medición.',
    os: 'Sistema operativo', 'os.windows': 'Windows (Monitor de rendimiento)', 'os.linux': 'Linux sin la sonda (iostat)',
    name: 'Nombre de la recogida', interval: 'Intervalo de muestreo (segundos)', baseline: 'Línea base (caché apagada), horas', measure: 'Medición (caché activa), horas',
    measureHelp: '0 registra solo una línea base: un perfil de carga, para dimensionar sin caché.', folder: 'Carpeta de los archivos en esa máquina',
    steps: 'Comandos, en orden (como administrador)', 'step.create': 'Crear la recogida de {window}', 'step.start': 'Iniciarla', 'step.typeperf': 'O, donde no se pueda crear una recogida, registrar con typeperf',
    'step.iostat': 'Registrar la ventana de {window}', 'window.baseline': 'línea base', 'window.measure': 'medición',
    fallback: 'typeperf lee los contadores del archivo de contadores que escribe el script.', script: 'Lo mismo en un script', download: 'Descargar {file}',
    sendBack: 'Qué devolver', importWith: 'Luego impórtelos con Importar un registro, o: {command}', invalid: 'Corrija primero el plan:',
    'problem.name': 'el nombre: solo letras, dígitos, - y _ (40 como máximo)', 'problem.interval': 'el intervalo: segundos enteros de 1 a 3600',
    'problem.hours': 'las horas: la línea base por encima de 0, la medición 0 o más, cada una 720 como máximo', 'problem.folder': 'la carpeta: una ruta absoluta (C:\\… en Windows, /… en Linux), sin comillas, % ni < > | ? *',
    samples: '{count} muestras por ventana de {hours} h', back: 'Volver al inicio',
  },
  ru: {
    nav: 'Сбор на другой машине',
    title: 'Сбор на другой машине',
    intro: 'Для сервера, где зонд запустить нельзя: команды ниже записывают его диски средствами, которые на нём уже есть (системный монитор Windows или iostat в Linux), в файлы, которые читает «Импорт журнала». Запишите базовый период с выключенным кэшем, включите кэш, запишите окно измерения.',
    os: 'Операционная система', 'os.windows': 'Windows (системный монитор)', 'os.linux': 'Linux без зонда (iostat)',
    name: 'Имя сбора', interval: 'Интервал выборки (секунды)', baseline: 'Базовый период (кэш выключен), часы', measure: 'Измерение (кэш включён), часы',
    measureHelp: '0 записывает только базовый период: профиль нагрузки для планирования без кэша.', folder: 'Папка для файлов на той машине',
    steps: 'Команды по порядку (от имени администратора)', 'step.create': 'Создать сбор: {window}', 'step.start': 'Запустить его', 'step.typeperf': 'Или, если сбор создать нельзя, записать через typeperf',
    'step.iostat': 'Записать окно: {window}', 'window.baseline': 'базовый период', 'window.measure': 'измерение',
    fallback: 'typeperf читает счётчики из файла счётчиков, который пишет сценарий.', script: 'То же одним сценарием', download: 'Скачать {file}',
    sendBack: 'Что прислать', importWith: 'Затем импортируйте их через «Импорт журнала» или: {command}', invalid: 'Сначала исправьте план:',
    'problem.name': 'имя: только буквы, цифры, - и _ (не более 40)', 'problem.interval': 'интервал: целые секунды от 1 до 3600',
    'problem.hours': 'часы: базовый период больше 0, измерение 0 или больше, каждое не более 720', 'problem.folder': 'папка: абсолютный путь (C:\\… в Windows, /… в Linux), без кавычек, % и < > | ? *',
    samples: '{count} выборок на окно {hours} ч', back: 'На главную',
  },
};
