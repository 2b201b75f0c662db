import { describe, expect, it } from 'vitest';
import { typedInitial } from '../../runtime/screens/form-schema.ts';

const properties = { groupId: { type: 'integer' }, rate: { type: 'number' }, name: { type: 'string' }, planId: { type: 'integer' } };

describe('the values a routed form starts from', () => {
  it('gives number and integer properties the number a route segment holds, and leaves text as text', () => {
    expect(typedInitial({ groupId: '12', rate: '2.5', name: '07' }, properties)).toEqual({ groupId: 12, rate: 2.5, name: '07' });
  });

  it('keeps a segment that holds no number as text (the form shows the type error) and drops empty values', () => {
    expect(typedInitial({ groupId: 'abc', planId: '', name: undefined }, properties)).toEqual({ groupId: 'abc' });
  });
});
