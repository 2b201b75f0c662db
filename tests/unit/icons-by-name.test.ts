/**
 * Icons named in data load one file each, on demand (runtime/icons/by-name.ts).
 */
import { describe, expect, it } from 'vitest';
import { loadedIcon, loadIcon, preloadIcons } from '../../runtime/icons/by-name.ts';

describe('icons by name', () => {
  it('loads the icon file a name names, once, and remembers it', async () => {
    expect(loadedIcon('UserOutlined')).toBeUndefined();
    const icon = await loadIcon('UserOutlined');
    // antd names its icon components outside production builds.
    expect((icon as { displayName?: string } | null)?.displayName).toBe('UserOutlined');
    expect(loadedIcon('UserOutlined')).toBe(icon);
    await expect(loadIcon('UserOutlined')).resolves.toBe(icon);
  });

  it('an unknown or malformed name is no icon', async () => {
    await expect(loadIcon('NoSuchThingOutlined')).resolves.toBeNull();
    expect(loadedIcon('NoSuchThingOutlined')).toBeNull();
    await expect(loadIcon('createFromIconfontCN')).resolves.toBeNull();
    await expect(loadIcon('../../index')).resolves.toBeNull();
    expect(loadedIcon('userOutlined')).toBeNull();
  });

  it('preloads several names for synchronous rendering', async () => {
    await preloadIcons(['PlusOutlined', 'DeleteOutlined', 'PlusOutlined']);
    expect((loadedIcon('PlusOutlined') as { displayName?: string }).displayName).toBe('PlusOutlined');
    expect((loadedIcon('DeleteOutlined') as { displayName?: string }).displayName).toBe('DeleteOutlined');
  });
});
