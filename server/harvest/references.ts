import type { ResourceExtension } from '../resources/extensions.ts';
import type { ReferenceTarget } from '../resources/references.ts';

/**
 * The harvest batches (`harvests`, a table of this module) as records others name by id:
 * a quality record's `harvestId`. The engine checks such a field with its one reference
 * rule (server/resources/references.ts): a batch of the record's own farm, or the same
 * refusal as a batch that does not exist.
 */
export const HARVEST_BATCHES: ReferenceTarget = {
  name: 'harvests',
  title: { zh: '采收批次', en: 'Harvest batch', es: 'Lote de cosecha' },
  scope: 'farm',
  table: 'harvests',
  rows: () => 'TRUE',
  owner: (alias) => ({ farm: `${alias}.farm_id`, bloc: 'NULL::integer' }),
  data: () => `'{}'::jsonb`,
};

export const harvestResourceExtensions: ResourceExtension[] = [{ resource: 'qualityRecords', hooks: {}, references: { harvestId: HARVEST_BATCHES } }];
