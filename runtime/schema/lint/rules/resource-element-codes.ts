import { collector, type ResourceRule } from '../context.ts';

export const resourceElementCodesRule: ResourceRule = {
  id: 'resource-element-codes',
  description: "Each write's element code, under the authority and under each alias, is an element code of the menus document.",
  check({ doc, file, elementCodes: elements }) {
    const { problems, add } = collector(file);
    for (const [action, code] of Object.entries(doc.elements)) {
      const suffix = code.slice(doc.authority.length);
      for (const menu of [doc.authority, ...(doc.authorityAliases ?? [])]) {
        const el = `${menu}${suffix}`;
        if (!elements.has(el)) add(`/elements/${action}`, `"${el}" is not an element code of the menus document`);
      }
    }
    return problems;
  },
};
