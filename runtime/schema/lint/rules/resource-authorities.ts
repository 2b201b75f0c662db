import { collector, type ResourceRule } from '../context.ts';

export const resourceAuthoritiesRule: ResourceRule = {
  id: 'resource-authorities',
  description: "A resource's authority, authority aliases and read authorities are menu codes of the menus document.",
  check({ doc, file, menuCodes: codes }) {
    const { problems, add } = collector(file);
    if (!codes.has(doc.authority)) add('/authority', `"${doc.authority}" is not a menu code of the menus document`);
    (doc.authorityAliases ?? []).forEach((a, i) => {
      if (!codes.has(a)) add(`/authorityAliases/${i}`, `"${a}" is not a menu code of the menus document`);
    });
    (doc.readAuthorities ?? []).forEach((a, i) => {
      if (!codes.has(a)) add(`/readAuthorities/${i}`, `"${a}" is not a menu code of the menus document`);
    });
    return problems;
  },
};
