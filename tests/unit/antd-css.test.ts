/**
 * antd's CSS cut by component (tools/antd-css.ts): each rule goes to the component that
 * its selectors' first antd class belongs to (the longest claimed prefix), media blocks are
 * cut the same way, and whatever no component owns stays in the base.
 */
import { describe, expect, it } from 'vitest';
import { splitAntdCss, topLevelRules } from '../../tools/antd-css.ts';

const CSS = [
  ':root{--ant-color-primary:#1677ff;}',
  'a{color:var(--ant-color-link);}',
  '@keyframes antFadeIn{0%{opacity:0}100%{opacity:1}}',
  '.ant-btn{padding:4px 15px;content:"}";}',
  '.ant-input{border:1px solid}',
  '.ant-input-number .ant-input{width:100%}',
  '.ant-input-affix-wrapper,.ant-input{display:inline-flex}',
  '.ant-btn,.ant-motion-collapse{transition:none}',
  '@media (max-width: 575px){.ant-form-item{margin:0}.ant-col-xs-24{flex:0 0 100%}.ant-zoom-big{opacity:0}}',
].join('');

describe('antd CSS by component', () => {
  it('reads top-level rules, braces in strings and nested blocks included', () => {
    const rules = topLevelRules(CSS);
    expect(rules).toHaveLength(9);
    expect(rules[3]).toBe('.ant-btn{padding:4px 15px;content:"}";}');
  });

  it('gives each rule to its component, the longest claimed prefix first; the rest is the base', () => {
    const { base, byComponent } = splitAntdCss(CSS, ['btn', 'input', 'input-number', 'form', 'col']);
    expect(byComponent.get('btn')).toBe('.ant-btn{padding:4px 15px;content:"}";}');
    expect(byComponent.get('input')).toBe('.ant-input{border:1px solid}\n.ant-input-affix-wrapper,.ant-input{display:inline-flex}');
    expect(byComponent.get('input-number')).toBe('.ant-input-number .ant-input{width:100%}');
    expect(byComponent.get('form')).toBe('@media (max-width: 575px){.ant-form-item{margin:0}}');
    expect(byComponent.get('col')).toBe('@media (max-width: 575px){.ant-col-xs-24{flex:0 0 100%}}');
    // Variables, resets, keyframes, a selector list with an unowned part, unowned media rules.
    expect(base.split('\n')).toEqual([
      ':root{--ant-color-primary:#1677ff;}',
      'a{color:var(--ant-color-link);}',
      '@keyframes antFadeIn{0%{opacity:0}100%{opacity:1}}',
      '.ant-btn,.ant-motion-collapse{transition:none}',
      '@media (max-width: 575px){.ant-zoom-big{opacity:0}}',
    ]);
  });
});
