import { describe, expect, it } from 'vitest';
import { addDays, isIsoDate } from '../../server/planting/dates.ts';
import {
  checkAssignees, checkGroupDates, checkTaskDates, checkTaskFromOwnPlan, checkTemplateKind,
  isOverdue, planItemsFromTemplate, refuseIfClosed,
} from '../../server/planting/rules.ts';

const group = { plantedOn: '2026-05-01', seasonStart: '2026-04-01', seasonEnd: '2026-09-30', status: 'growing' as const };

describe('planting rules', () => {
  it('dates: month and leap-year boundaries, invalid dates', () => {
    expect(addDays('2028-02-28', 1)).toBe('2028-02-29');
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(isIsoDate('2026-02-30')).toBe(false);
    expect(isIsoDate('2026-02-28')).toBe(true);
  });
  it('computes every item from day offsets: spans end on startDay + days - 1, key nodes are one day', () => {
    const items = planItemsFromTemplate({ name: 't', kind: 'pattern', cropId: 1, stages: [{ name: 's', startDay: 0, days: 1 }], keyNodes: [{ name: 'k', day: 31 }],
      workItems: [{ orderNumber: 5, name: 'w2', workTypeId: 2, startDay: 2, days: 3 }, { orderNumber: 1, name: 'w1', workTypeId: 1, startDay: 0, days: 1 }] }, '2026-01-31');
    expect(items.map((i) => [i.orderNumber, i.name, i.startOn, i.endOn])).toEqual([
      [1, 's', '2026-01-31', '2026-01-31'], [2, 'k', '2026-03-03', '2026-03-03'], [3, 'w1', '2026-01-31', '2026-01-31'], [4, 'w2', '2026-02-02', '2026-02-04'],
    ]);
  });
  it('refuses dates before planting, before or after the season; accepts the edges', () => {
    expect(checkGroupDates([{ startOn: '2026-05-01', endOn: '2026-09-30' }], group)).toEqual([]);
    expect(checkGroupDates([{ startOn: '2026-04-30', endOn: '2026-05-02' }], group).map((p) => p.key)).toEqual(['planting.beforePlanting']);
    expect(checkGroupDates([{ startOn: '2026-03-31', endOn: '2026-10-01' }], group).map((p) => p.key)).toEqual(['planting.beforePlanting', 'planting.beforeSeason', 'planting.afterSeason']);
  });
  it('closed groups, template kinds, own plans, assignees, task dates', () => {
    expect(refuseIfClosed({ status: 'closed' })).toHaveLength(1);
    expect(refuseIfClosed({ status: 'harvested' })).toEqual([]);
    expect(checkTemplateKind({ kind: 'keyNodes' }, 'growthCycle')[0].field).toBe('templateId');
    expect(checkTaskFromOwnPlan({ groupId: 1, planId: 2 }, { id: 2, groupId: 1 }, { planId: 2 })).toEqual([]);
    expect(checkTaskFromOwnPlan({ groupId: 1, planId: 2 }, { id: 2, groupId: 1 }, { planId: 3 })[0].field).toBe('planItemId');
    expect(checkTaskFromOwnPlan({ groupId: 9, planId: 2 }, { id: 2, groupId: 1 }, { planId: 2 })[0].field).toBe('planId');
    expect(checkAssignees([1, 2], new Set([1]))[0].params.ids).toBe('2');
    expect(checkTaskDates({ startOn: '2026-06-02', dueOn: '2026-06-01' }, group)[0].field).toBe('dueOn');
    expect(checkTaskDates({ startOn: '2026-06-01', dueOn: '2026-10-02' }, group)[0]).toMatchObject({ field: 'dueOn', key: 'planting.afterSeason' });
  });
  // The transitions are the documents' (tests/api/planting-rules.test.ts).
  it('overdue is derived', () => {
    expect(isOverdue({ status: 'published', dueOn: '2026-01-01' }, '2026-01-02')).toBe(true);
    expect(isOverdue({ status: 'done', dueOn: '2026-01-01' }, '2026-01-02')).toBe(false);
    expect(isOverdue({ status: 'inProgress', dueOn: '2026-01-02' }, '2026-01-02')).toBe(false);
  });
});
