import { defineMessages } from '../i18n/catalog.ts';

/** The devices module's sentences (zh / en / es). */
export const msg = defineMessages({
  'devices.offline': {
    zh: '设备「{device}」离线，命令未发送',
    en: 'The device “{device}” is offline; the command was not sent',
    es: 'El dispositivo «{device}» está desconectado; no se envió la orden',
  },
  'devices.timedOut': {
    zh: '设备「{device}」在 {seconds} 秒内没有回应，命令未确认执行',
    en: 'The device “{device}” did not answer within {seconds} s; the command is not confirmed',
    es: 'El dispositivo «{device}» no respondió en {seconds} s; la orden no está confirmada',
  },
  'devices.superseded': {
    zh: '已被之后的命令取代',
    en: 'Replaced by a later command',
    es: 'Sustituida por una orden posterior',
  },
  'devices.failed': {
    zh: '设备拒绝执行：{reason}',
    en: 'The device refused: {reason}',
    es: 'El dispositivo la rechazó: {reason}',
  },
  'devices.acknowledged': { zh: '设备已确认执行', en: 'Acknowledged by the device', es: 'Confirmada por el dispositivo' },
  'devices.pending': { zh: '等待设备确认', en: 'Waiting for the device', es: 'Esperando al dispositivo' },
  'devices.wrongAction': {
    zh: '「{device}」不能执行此操作',
    en: '“{device}” cannot do this',
    es: '«{device}» no puede hacer esto',
  },
  'devices.brokerDown': {
    zh: '与设备网关的连接已断开，请稍后再试',
    en: 'The connection to the device gateway is down; please try again later',
    es: 'La conexión con la pasarela de dispositivos está caída; inténtelo más tarde',
  },
  'devices.notYourFarm': {
    zh: '只有设备所属农场的账号可以控制设备（平台、集团与区域账号只能查看）',
    en: 'Only an account of the device’s own farm can control it (platform, bloc and region accounts can only view it)',
    es: 'Solo una cuenta de la granja del dispositivo puede controlarlo (las cuentas de plataforma, grupo y región solo pueden verlo)',
  },
  'devices.wrongScreen': {
    zh: '「{device}」不能在此界面控制，请在其类型的控制界面操作',
    en: '“{device}” cannot be controlled from this screen; use a control screen of its kind',
    es: '«{device}» no se puede controlar desde esta pantalla; use una pantalla de control de su tipo',
  },
  'devices.deviceMissing': { zh: '设备不存在', en: 'The device does not exist', es: 'El dispositivo no existe' },
  'devices.rangeTooLong': {
    zh: '时间范围太长：按{bucket}汇总时最多 {max} 个点',
    en: 'The range is too long: at most {max} points by {bucket}',
    es: 'El intervalo es demasiado largo: como máximo {max} puntos por {bucket}',
  },
  'devices.rawRangeTooLong': {
    zh: '时间范围太长：原始数据一次最多导出 {days} 天',
    en: 'The range is too long: raw readings are exported at most {days} days at a time',
    es: 'El intervalo es demasiado largo: las lecturas se exportan como máximo {days} días a la vez',
  },
  'devices.rawTooMany': {
    zh: '数据太多：{format} 一次最多导出 {max} 条，请缩短时间范围或减少位置',
    en: 'Too many readings: at most {max} per {format} file; shorten the range or choose fewer places',
    es: 'Demasiadas lecturas: como máximo {max} por archivo {format}; acorte el intervalo o elija menos lugares',
  },
  'devices.rangeOrder': { zh: '结束时间必须晚于开始时间', en: 'The end must be after the start', es: 'El final debe ser posterior al inicio' },
  'devices.alarmRaised': { zh: '告警：{name}', en: 'Alarm: {name}', es: 'Alarma: {name}' },
  'devices.alarmCleared': { zh: '告警解除：{name}', en: 'Alarm cleared: {name}', es: 'Alarma resuelta: {name}' },
  'devices.badParam': { zh: '取值无效：{expected}', en: 'Invalid value: {expected}', es: 'Valor no válido: {expected}' },
  'devices.runForRange': {
    zh: '运行时长须为 {min} 秒到 {max} 小时之间的整秒数',
    en: 'The run time must be a whole number of seconds from {min} s to {max} h',
    es: 'El tiempo de marcha debe ser un número entero de segundos entre {min} s y {max} h',
  },
  'devices.runForOnlyOn': {
    zh: '只有「开」的命令可以设定运行时长',
    en: 'Only a switch-on command can have a run time',
    es: 'Solo una orden de encendido puede tener tiempo de marcha',
  },
  'devices.runForKinds': {
    zh: '只有开关、水泵与风机可以定时运行；阀门请用开启时长（minutes）',
    en: 'Only switches, pumps and fans can run for a set time; a valve takes its opening time (minutes)',
    es: 'Solo los interruptores, bombas y ventiladores pueden funcionar un tiempo fijado; una válvula usa su tiempo de apertura (minutes)',
  },
  'devices.conditionsOrSingle': {
    zh: '多个条件请只写在 conditions 中（单个条件的 place、kind、op、value、deadband 不能同时填写）',
    en: 'With several conditions, put them in conditions only (not place, kind, op, value or deadband of a single condition as well)',
    es: 'Con varias condiciones, escríbalas solo en conditions (no también place, kind, op, value o deadband de una sola condición)',
  },
  'devices.matchNeedsConditions': {
    zh: '「全部 / 任一」只用于多个条件（conditions）',
    en: '“all / any” applies to several conditions (conditions) only',
    es: '«todas / cualquiera» solo se aplica a varias condiciones (conditions)',
  },
  'devices.scenarioMissing': { zh: '方案不存在', en: 'The scenario does not exist', es: 'El escenario no existe' },
  'devices.codeTaken': {
    zh: '编号「{code}」已被使用（设备与网关的编号在全平台唯一）',
    en: 'The code “{code}” is already in use (device and gateway codes are unique across the platform)',
    es: 'El código «{code}» ya está en uso (los códigos de dispositivos y pasarelas son únicos en la plataforma)',
  },
  'devices.unknownKind': {
    zh: '未知的设备类型「{kind}」',
    en: 'Unknown device kind “{kind}”',
    es: 'Tipo de dispositivo desconocido «{kind}»',
  },
  'devices.unknownChannel': {
    zh: '未知的测量通道「{channel}」',
    en: 'Unknown measuring channel “{channel}”',
    es: 'Canal de medida desconocido «{channel}»',
  },
  'devices.channelsSensorOnly': {
    zh: '只有传感器才有测量通道',
    en: 'Only sensors have measuring channels',
    es: 'Solo los sensores tienen canales de medida',
  },
  'devices.gatewayMissing': {
    zh: '网关不存在或不属于本农场',
    en: 'The gateway does not exist or is not of this farm',
    es: 'La pasarela no existe o no es de esta granja',
  },
  'devices.gatewayHasDevices': {
    zh: '网关「{gateway}」下还有 {n} 台设备，请先移走或删除这些设备',
    en: 'The gateway “{gateway}” still has {n} devices; move or delete them first',
    es: 'La pasarela «{gateway}» aún tiene {n} dispositivos; muévalos o elimínelos primero',
  },
  'devices.hasHistory': {
    zh: '设备「{device}」已上报过数据或执行过命令，不能删除（历史数据需要保留）；可将其移出网关以停用',
    en: 'The device “{device}” has reported or been commanded and cannot be deleted (its history is kept); take it off its gateway to retire it',
    es: 'El dispositivo «{device}» ya ha informado o recibido órdenes y no puede eliminarse (se conserva su historial); quítelo de su pasarela para retirarlo',
  },
  'devices.usedByScenario': {
    zh: '设备「{device}」被自动化方案「{scenario}」使用，请先修改该方案',
    en: 'The device “{device}” is used by the scenario “{scenario}”; change that scenario first',
    es: 'El dispositivo «{device}» lo usa el escenario «{scenario}»; cambie primero ese escenario',
  },
  'devices.noFarm': {
    zh: '只有农场账号可以修改本农场的设备',
    en: 'Only a farm’s account can change the farm’s devices',
    es: 'Solo una cuenta de granja puede cambiar sus dispositivos',
  },
  'devices.forecastFrom': { zh: '天气预报来自 {provider}', en: 'Forecast from {provider}', es: 'Pronóstico de {provider}' },
  'devices.forecastDown': {
    zh: '天气预报服务（{provider}）暂时无法访问，请稍后再试',
    en: 'The forecast provider ({provider}) cannot be reached right now; please try again later',
    es: 'No se puede acceder al proveedor de pronóstico ({provider}); inténtelo más tarde',
  },
  'devices.forecastNone': {
    zh: '未配置天气预报服务：只显示本场气象站的实测数据',
    en: 'No forecast provider is configured: only the farm’s own station readings are shown',
    es: 'No hay proveedor de pronóstico configurado: solo se muestran las lecturas de las estaciones de la granja',
  },
});
