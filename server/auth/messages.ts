import { defineMessages } from '../i18n/catalog.ts';

/** Messages of login, logout, SMS codes, passwords and registration. */
export const authMessages = defineMessages({
  'auth.badCredentials': {
    zh: '用户名或密码错误',
    en: 'Wrong username or password',
    es: 'Usuario o contraseña incorrectos',
  },
  'auth.accountDisabled': {
    zh: '该账号已被停用，请联系管理员',
    en: 'This account is disabled; please contact the administrator',
    es: 'Esta cuenta está desactivada; contacte con el administrador',
  },
  'auth.throttled': {
    zh: '登录失败次数过多，请 {minutes} 分钟后再试',
    en: 'Too many failed logins; try again in {minutes} minutes',
    es: 'Demasiados intentos fallidos; inténtelo de nuevo dentro de {minutes} minutos',
  },
  'auth.queryTokenMismatch': {
    zh: '登录已失效，请重新登录',
    en: 'Your session has ended, please log in again',
    es: 'Su sesión ha terminado, inicie sesión de nuevo',
  },
  'auth.usernameRequired': { zh: '请输入用户名', en: 'Please enter the username', es: 'Introduzca el nombre de usuario' },
  'auth.passwordRequired': { zh: '请输入密码', en: 'Please enter password', es: 'Introduzca la contraseña' },
  'auth.passwordRule': {
    zh: '只能输入6-20个字母、数字、下划线',
    en: 'Only 6-20 letters, digits, underscores allowed',
    es: 'Solo se permiten de 6 a 20 letras, dígitos y guiones bajos',
  },
  'auth.phoneRequired': { zh: '请输入手机号', en: 'Please enter phone number', es: 'Introduzca el número de teléfono' },
  'auth.phoneFormat': { zh: '手机号格式不正确', en: 'Phone number format incorrect', es: 'Formato de número de teléfono incorrecto' },
  'auth.codeRequired': { zh: '请输入验证码', en: 'Please enter verification code', es: 'Introduzca el código de verificación' },
  'auth.phoneTaken': {
    zh: '该手机号已被注册',
    en: 'This phone number is already registered',
    es: 'Este número de teléfono ya está registrado',
  },
  'auth.phoneUnknown': {
    zh: '该手机号未绑定任何可用账号',
    en: 'No active account uses this phone number',
    es: 'Ninguna cuenta activa usa este número de teléfono',
  },
  'auth.smsTooSoon': {
    zh: '验证码已发送，请 {seconds} 秒后再试',
    en: 'A code was just sent; try again in {seconds} seconds',
    es: 'Se acaba de enviar un código; inténtelo de nuevo en {seconds} segundos',
  },
  'auth.smsSent': {
    zh: '验证码已发送，{minutes} 分钟内有效',
    en: 'Verification code sent; valid for {minutes} minutes',
    es: 'Código de verificación enviado; válido durante {minutes} minutos',
  },
  'auth.smsFailed': {
    zh: '短信发送失败，请稍后再试',
    en: 'The text message could not be sent, please try again later',
    es: 'No se pudo enviar el mensaje, inténtelo más tarde',
  },
  'auth.codeWrong': {
    zh: '验证码错误',
    en: 'Wrong verification code',
    es: 'Código de verificación incorrecto',
  },
  'auth.codeExpired': {
    zh: '验证码已失效，请重新获取',
    en: 'The verification code has expired; please request a new one',
    es: 'El código de verificación ha caducado; solicite uno nuevo',
  },
  'auth.codeTooManyAttempts': {
    zh: '验证码错误次数过多，请重新获取',
    en: 'Too many wrong codes; please request a new one',
    es: 'Demasiados códigos incorrectos; solicite uno nuevo',
  },
  'auth.phoneNotYours': {
    zh: '该手机号不属于当前登录账号',
    en: 'This phone number does not belong to the logged-in account',
    es: 'Este número de teléfono no pertenece a la cuenta con sesión iniciada',
  },
  'auth.userUnknown': { zh: '用户不存在', en: 'No such user', es: 'El usuario no existe' },
  'auth.passwordChanged': { zh: '密码修改成功', en: 'Password changed', es: 'Contraseña cambiada' },
  'auth.usernameRule': {
    zh: '用户名为3-30个字母、数字、下划线、点或横线',
    en: 'The username is 3-30 letters, digits, underscores, dots or hyphens',
    es: 'El nombre de usuario tiene de 3 a 30 letras, dígitos, guiones bajos, puntos o guiones',
  },
  'auth.usernameTaken': {
    zh: '该用户名已被使用',
    en: 'This username is already taken',
    es: 'Este nombre de usuario ya está en uso',
  },
  'auth.nameRequired': { zh: '请输入姓名', en: 'Please enter the name', es: 'Introduzca el nombre' },
  'auth.orgNameRequired': { zh: '请输入机构名称', en: 'Please enter the organisation name', es: 'Introduzca el nombre de la organización' },
  'auth.orgTypeRule': {
    zh: '请选择机构类型（农场、厂家、区域管理中心或育苗基地）',
    en: 'Choose the organisation type (farm, manufacturer, regional center or seedling base)',
    es: 'Elija el tipo de organización (granja, fabricante, centro regional o vivero)',
  },
  'auth.registered': {
    zh: '注册申请已提交，请等待审核',
    en: 'Registration submitted; it awaits review',
    es: 'Solicitud de registro enviada; está pendiente de revisión',
  },
  'auth.fieldInvalid': {
    zh: '请检查填写的内容',
    en: 'Please check the highlighted fields',
    es: 'Revise los campos indicados',
  },
});
