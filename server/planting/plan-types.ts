import type { PlanType } from './rules.ts';

/** The planTypeId of /farmPlantGroup/makePlantPlan/:id/:planTypeId (shared planting data model). */
export const PLAN_TYPE_IDS: Record<number, PlanType> = { 1: 'growthCycle', 2: 'keyNodes', 3: 'seasonWork', 4: 'pattern' };
