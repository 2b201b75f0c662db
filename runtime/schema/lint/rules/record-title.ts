import { collector, type ScreenRule } from '../context.ts';
import { fieldKnown, textOf3 } from '../fields.ts';

export const recordTitleRule: ScreenRule = {
  id: 'record-title',
  description: "The {field} placeholders of the record title name fields of the record.",
  check({ screen, file, resource }) {
    const { problems, add } = collector(file);
    if (screen.recordTitle) {
      const own = screen.kind === 'form' ? screen.record : undefined;
      for (const m of new Set(textOf3(screen.recordTitle).flatMap((x) => [...x.matchAll(/\{([\w.]+)\}/g)].map((g) => g[1])))) {
        const known = resource ? fieldKnown(resource, m, 'record') : own ? m.split('.')[0] in own.properties : true;
        if (!known) add('/recordTitle', `{${m}} is not a field of the record`);
      }
    }
    return problems;
  },
};
