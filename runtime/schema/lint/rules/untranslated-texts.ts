import { collector, type ScreenRule } from '../context.ts';
import { walkTexts } from '../fields.ts';

export const untranslatedTextsRule: ScreenRule = {
  id: 'untranslated-texts',
  description: 'Warns of every text still marked as copied from another language.',
  check({ screen, file }) {
    const { problems, add } = collector(file);
    walkTexts(screen, '', (pointer, langs) => add(pointer, `${langs.join(' and ')} still copied from another language (untranslated)`, 'warning'));
    return problems;
  },
};
