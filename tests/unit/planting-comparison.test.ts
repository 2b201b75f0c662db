import { describe, expect, it } from 'vitest';
import { compareItemWithRecords } from '../../server/planting/comparison.ts';

const item = { startOn: '2026-05-10', endOn: '2026-05-12', materials: [{ name: '尿素' }, { name: '磷肥' }] };

describe('a plan item against its records', () => {
  it('is on time when the first record falls inside the item’s days', () => {
    const c = compareItemWithRecords(item, [{ doneOn: '2026-05-11', materials: [{ name: '尿素' }] }], '2026-06-01');
    expect(c).toMatchObject({ timing: 'onTime', daysOff: 0, recordCount: 1, extraMaterials: [], missingMaterials: ['磷肥'] });
  });

  it('is late or early by the days between the first record and the item', () => {
    expect(compareItemWithRecords(item, [{ doneOn: '2026-05-15' }, { doneOn: '2026-05-14' }], '2026-06-01')).toMatchObject({ timing: 'late', daysOff: 2, firstDoneOn: '2026-05-14', lastDoneOn: '2026-05-15' });
    expect(compareItemWithRecords(item, [{ doneOn: '2026-05-07' }], '2026-06-01')).toMatchObject({ timing: 'early', daysOff: 3 });
  });

  it('is missing only once the item’s last day is over, pending before', () => {
    expect(compareItemWithRecords(item, [], '2026-05-12')).toMatchObject({ timing: 'pending', daysOff: 0, missingMaterials: [] });
    expect(compareItemWithRecords(item, [], '2026-05-15')).toMatchObject({ timing: 'missing', daysOff: 3 });
  });

  it('lists materials recorded beyond the plan', () => {
    const c = compareItemWithRecords(item, [{ doneOn: '2026-05-10', materials: [{ name: '尿素' }, { name: '磷肥' }, { name: '钾肥' }] }], '2026-05-10');
    expect(c).toMatchObject({ extraMaterials: ['钾肥'], missingMaterials: [] });
  });
});
