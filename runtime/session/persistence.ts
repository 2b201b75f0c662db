import { isLanguage, type Language } from '../i18n/languages.ts';
import type { KeyValueStore } from './key-value.ts';
import type { UserInfo } from './user-info.ts';

/** Cookie names of spec section 3. */
export const COOKIE = {
  token: 'token',
  farmId: 'farmId',
  userId: 'userId',
  groupId: 'groupId',
  groupName: 'groupName',
  roles: 'roles',
  chiefFarmId: 'chiefFarmId',
  sidebarStatus: 'sidebarStatus',
  language: 'language',
  size: 'size',
} as const;

/** The localStorage key of the haveFarm flag. */
export const HAVE_FARM_KEY = 'haveFarm';

/** Preferences outlive the browser session; the session's own cookies do not. */
const PREFERENCE_DAYS = 365;

export type ComponentSize = 'large' | 'middle' | 'small';

/**
 * The session's persisted part: cookies and the haveFarm flag. Everything that reads or
 * writes them goes through here, so the names and the logout list live in one place.
 */
export class SessionPersistence {
  constructor(
    private readonly cookies: KeyValueStore,
    private readonly local: KeyValueStore,
  ) {}

  get token(): string | undefined {
    return this.cookies.get(COOKIE.token) || undefined;
  }

  saveToken(token: string): void {
    this.cookies.set(COOKIE.token, token);
  }

  /** A farm id stored earlier (e.g. chosen among a provider's farms) wins over the server's. */
  get storedFarmId(): string | undefined {
    return this.cookies.get(COOKIE.farmId) || undefined;
  }

  get haveFarm(): string | undefined {
    return this.local.get(HAVE_FARM_KEY);
  }

  setHaveFarm(value: '0' | '1'): void {
    this.local.set(HAVE_FARM_KEY, value);
  }

  /** Stores the ids of the info reply and returns the info with the effective farm id. */
  rememberUser(info: UserInfo): UserInfo {
    const farmId = this.storedFarmId ?? (info.farmId === null ? undefined : String(info.farmId));
    if (farmId !== undefined) this.cookies.set(COOKIE.farmId, farmId);
    this.cookies.set(COOKIE.userId, String(info.id));
    setOrRemove(this.cookies, COOKIE.groupId, info.groupId === null ? undefined : String(info.groupId));
    setOrRemove(this.cookies, COOKIE.groupName, info.groupName ?? undefined);
    setOrRemove(this.cookies, COOKIE.chiefFarmId, info.chiefFarmId === null ? undefined : String(info.chiefFarmId));
    this.cookies.set(COOKIE.roles, JSON.stringify(info.roles));
    return { ...info, farmId: farmId === undefined ? null : farmId };
  }

  /**
   * What log out and the forced local log out clear (spec section 4): token, roles, the
   * stored farm, user and chief ids and haveFarm. The group id and name go too, so the
   * next user of the browser never inherits them.
   */
  clear(): void {
    for (const name of [COOKIE.token, COOKIE.roles, COOKIE.farmId, COOKIE.userId, COOKIE.chiefFarmId, COOKIE.groupId, COOKIE.groupName]) {
      this.cookies.remove(name);
    }
    this.local.remove(HAVE_FARM_KEY);
  }

  get language(): Language | undefined {
    const value = this.cookies.get(COOKIE.language);
    return isLanguage(value) ? value : undefined;
  }

  saveLanguage(language: Language): void {
    this.cookies.set(COOKIE.language, language, { days: PREFERENCE_DAYS });
  }

  get size(): ComponentSize | undefined {
    const value = this.cookies.get(COOKIE.size);
    return value === 'large' || value === 'middle' || value === 'small' ? value : undefined;
  }

  saveSize(size: ComponentSize): void {
    this.cookies.set(COOKIE.size, size, { days: PREFERENCE_DAYS });
  }

  /** '1' opened, '0' closed (the shell's sidebar). */
  get sidebarStatus(): '0' | '1' | undefined {
    const value = this.cookies.get(COOKIE.sidebarStatus);
    return value === '0' || value === '1' ? value : undefined;
  }

  saveSidebarStatus(status: '0' | '1'): void {
    this.cookies.set(COOKIE.sidebarStatus, status, { days: PREFERENCE_DAYS });
  }
}

function setOrRemove(store: KeyValueStore, name: string, value: string | undefined): void {
  if (value === undefined || value === '') store.remove(name);
  else store.set(name, value);
}
