/**
 * The bundled screens' quick guides (their `help`), a chunk of its own fetched when the
 * instruction dialog first opens. A build takes `help` out of the documents it bundles
 * (vite.config.ts, `console:screen-help`): three languages of prose for some 240 screens
 * were a third of the documents' weight on every route after login, for a dialog that is
 * seldom opened. Each `?help` import is the document's id and help alone; without the
 * plugin (the tests' transform) it is the whole document, which has both as well.
 */
import type { I18nText } from '../schema/texts.ts';

const modules = import.meta.glob<{ id?: string; help?: I18nText | null }>('../../schemas/screens/**/*.json', { query: '?help', import: 'default', eager: true });

const byId = new Map<string, I18nText>();
for (const m of Object.values(modules)) if (m?.id && m.help) byId.set(m.id, m.help);

/** The help of the bundled screen `id`, if it has one. */
export function bundledHelp(id: string): I18nText | undefined {
  return byId.get(id);
}
