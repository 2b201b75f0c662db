import { defineMessages } from '../i18n/catalog.ts';

/** The platform material libraries' sentences (zh / en / es). */
export const msg = defineMessages({
  'library.fieldNotOfKind': {
    zh: '「{field}」不用于{kind}',
    en: '“{field}” is not a field of a {kind}',
    es: '«{field}» no se usa en el tipo «{kind}»',
  },
  'library.requiredForKind': {
    zh: '{kind}必须填写「{field}」',
    en: 'A {kind} needs “{field}”',
    es: '«{field}» es obligatorio en el tipo «{kind}»',
  },
  'library.registrationTaken': {
    zh: '{kind}库中已有登记证号为「{no}」的条目（{name}）',
    en: 'The {kind} library already has an entry with registration number “{no}” ({name})',
    es: 'El tipo «{kind}» ya tiene una entrada con el número de registro «{no}» ({name})',
  },
  'library.factoryNameTaken': {
    zh: '已有名为「{name}」的厂家',
    en: 'There is already a manufacturer named “{name}”',
    es: 'Ya existe un fabricante llamado «{name}»',
  },
  'library.deviceModelTaken': {
    zh: '{vendor}的型号「{model}」已在设备库中',
    en: 'Model “{model}” of {vendor} is already in the device library',
    es: 'El modelo «{model}» de {vendor} ya está en el catálogo',
  },
  'library.kindForbidden': {
    zh: '没有维护{kind}库的权限',
    en: 'You may not change the {kind} library',
    es: 'No puede modificar las entradas del tipo «{kind}»',
  },
  'library.kindMismatch': {
    zh: '所选农资库条目是{kind}，与品类「{category}」不一致',
    en: 'The chosen library entry is a {kind}, not of the category “{category}”',
    es: 'La entrada elegida del catálogo es del tipo «{kind}», no de la categoría «{category}»',
  },
});
