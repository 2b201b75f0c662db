/** The schema language's widget names (meta-schema, schemas:check) are exactly the product manifest's. */
import { describe, expect, it } from 'vitest';
import { WIDGET_NAMES } from '../../runtime/schema/widget-names.ts';
import { installWidgets, widgetFor } from '../../runtime/widgets/api.ts';
import { WIDGET_MANIFEST } from '../../widgets/manifest.ts';

describe('widget manifest', () => {
  it('lists exactly the names the schema language accepts', () => {
    expect(Object.keys(WIDGET_MANIFEST).sort()).toEqual([...WIDGET_NAMES].sort());
  });

  it('answers ready, missing or unknown from the installed manifest', () => {
    const load = async () => ({ default: () => null });
    // A name whose implementation a build leaves out is `missing` (null in the manifest).
    installWidgets({ ...WIDGET_MANIFEST, map: load, equipmentControl: null });
    expect(widgetFor('map')).toEqual({ state: 'ready', load });
    expect(widgetFor('equipmentControl')).toEqual({ state: 'missing' });
    expect(widgetFor('toString')).toEqual({ state: 'unknown' });
    expect(widgetFor('weather')).toEqual({ state: 'unknown' });
    installWidgets(WIDGET_MANIFEST);
  });
});
